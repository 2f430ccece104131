import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { VirtuosoMockContext } from 'react-virtuoso'
import { describe, expect, it } from 'vitest'
import { renderRoutes } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'
import type { FunctionCard } from './api'
import { FunctionsPage } from './FunctionsPage'
import { ASSEMBLAGE, fieldsAnswer, LYON, namesAnswer, parseAnswer, searchAnswer, USINAGE } from './listTestServer'

const QUERY = 'POST /backend/api/v2/function/query'
const SEARCH = 'GET /backend/api/v2/mapping/items/search'
const NAMES = 'POST /backend/api/v2/mapping/items/names'

const FUNCTIONS: FunctionCard[] = [
  { id: 12, code: 'OPR', name: 'Opérateur régleur', cartographyId: USINAGE.id, context: [LYON, USINAGE] },
  { id: 31, code: 'MON', name: 'Monteur', cartographyId: ASSEMBLAGE.id, context: [LYON, ASSEMBLAGE] },
]

function renderFunctions(entry = '/functions', answer: (filter: string) => FunctionCard[] = () => FUNCTIONS) {
  const fetchMock = fakeServer({
    [QUERY]: async (request) => {
      const { filter } = (await request.clone().json()) as { filter: string }
      const results = answer(filter)
      return json({ results, totalItems: results.length })
    },
    'GET /backend/api/v2/querylang/function/fields': fieldsAnswer('function'),
    'POST /backend/api/v2/querylang/function/parse': parseAnswer('function'),
    'GET /backend/api/v2/account/filters': () => json({}),
    [SEARCH]: searchAnswer,
    [NAMES]: namesAnswer,
  })
  const element = (
    <VirtuosoMockContext.Provider value={{ viewportHeight: 2000, itemHeight: 60 }}>
      <FunctionsPage />
    </VirtuosoMockContext.Provider>
  )
  const rendered = renderRoutes([{ path: 'functions/:filter?', element }], `/spotv2${entry}`)
  return { ...rendered, fetchMock }
}

describe('filtered functions', () => {
  it('lists the functions through POST /function/query, each with its site and cartography as links', async () => {
    const { fetchMock } = renderFunctions()
    const card = await screen.findByRole('article', { name: 'Opérateur régleur' })
    expect(screen.getByText('2 functions')).toBeInTheDocument()
    expect(await sentRequests(fetchMock, QUERY)[0].json()).toEqual({ filter: '', sort: '', page: 1, pageSize: 50 })
    expect(within(card).getByRole('link', { name: 'Opérateur régleur' })).toHaveAttribute('href', '/spotv2/function/12')
    const where = within(card).getByRole('navigation', { name: 'Where the function is' })
    expect(within(where).getByRole('link', { name: 'Usine de Lyon' })).toHaveAttribute('href', '/spotv2/sites?cartographyId=2')
    expect(within(where).getByRole('link', { name: "Atelier d'usinage" })).toHaveAttribute('href', '/spotv2/cartography/2')
  })

  it('sorts through the address and the sort control', async () => {
    const { router, fetchMock } = renderFunctions('/functions?sorting=-code')
    expect(await screen.findByRole('button', { name: 'Code, descending' })).toBeInTheDocument()
    expect(await sentRequests(fetchMock, QUERY)[0].json()).toEqual({ filter: '', sort: '-code', page: 1, pageSize: 50 })
    await userEvent.click(screen.getByRole('button', { name: 'Code, descending' }))
    await waitFor(() => expect(router.state.location.search).toBe('?sorting=code'))
    await waitFor(async () => expect(await sentRequests(fetchMock, QUERY).at(-1)?.json()).toMatchObject({ sort: 'code' }))
  })

  it('filters on a cartography found by name among cartographies only', async () => {
    const { router, fetchMock } = renderFunctions('/functions', (filter) => (filter === '' ? FUNCTIONS : FUNCTIONS.slice(0, 1)))
    await userEvent.click(await screen.findByRole('button', { name: 'Filter' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Add a criterion' }))
    const row = screen.getByRole('group', { name: 'Criterion 1' })
    await userEvent.click(within(row).getByRole('combobox', { name: 'Field' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Cartography' }))
    await userEvent.type(within(row).getByRole('combobox', { name: 'Value' }), 'atelier')
    await userEvent.click(await screen.findByRole('option', { name: "Atelier d'usinage (Usine de Lyon)" }))
    const [search] = sentRequests(fetchMock, SEARCH)
    expect(new URL(search.url).searchParams.get('types')).toBe('cartography')
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/functions/cartography%20oneOf%202'))
    expect(await screen.findByText('1 function')).toBeInTheDocument()
    expect(screen.queryByRole('article', { name: 'Monteur' })).not.toBeInTheDocument()
  })

  it('offers sites, cartographies and functions to a location criterion', async () => {
    const { fetchMock } = renderFunctions(`/functions/${encodeURIComponent('location oneOf 12')}`)
    expect(await screen.findByText("Location is one of Opérateur régleur (Atelier d'usinage)")).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }))
    const row = await screen.findByRole('group', { name: 'Criterion 1' })
    await userEvent.type(within(row).getByRole('combobox', { name: 'Value' }), 'u')
    expect(await screen.findByRole('option', { name: 'Usine de Lyon' })).toBeInTheDocument()
    const [search] = sentRequests(fetchMock, SEARCH)
    expect(new URL(search.url).searchParams.get('types')).toBe('site,cartography,function')
  })

  it('says when no function is available', async () => {
    renderFunctions('/functions', () => [])
    expect(await screen.findByText('No function is available to you.')).toBeInTheDocument()
  })
})
