import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { VirtuosoMockContext } from 'react-virtuoso'
import { describe, expect, it } from 'vitest'
import { renderRoutes } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'
import type { CartographyCard } from './api'
import { CartographiesPage } from './CartographiesPage'
import { ASSEMBLAGE, fieldsAnswer, LYON, namesAnswer, parseAnswer, searchAnswer, USINAGE } from './listTestServer'

const QUERY = 'POST /backend/api/v2/cartography/query'
const SEARCH = 'GET /backend/api/v2/mapping/items/search'
const NAMES = 'POST /backend/api/v2/mapping/items/names'

const CARTOGRAPHIES: CartographyCard[] = [
  { id: USINAGE.id, code: USINAGE.code, name: USINAGE.name, context: [LYON] },
  { id: ASSEMBLAGE.id, code: ASSEMBLAGE.code, name: ASSEMBLAGE.name, context: [LYON] },
]

function renderCartographies(entry = '/cartographies', answer: (filter: string) => CartographyCard[] = () => CARTOGRAPHIES) {
  const fetchMock = fakeServer({
    [QUERY]: async (request) => {
      const { filter } = (await request.clone().json()) as { filter: string }
      const results = answer(filter)
      return json({ results, totalItems: results.length })
    },
    'GET /backend/api/v2/querylang/cartography/fields': fieldsAnswer('cartography'),
    'POST /backend/api/v2/querylang/cartography/parse': parseAnswer('cartography'),
    'GET /backend/api/v2/account/filters': () => json({}),
    [SEARCH]: searchAnswer,
    [NAMES]: namesAnswer,
  })
  const element = (
    <VirtuosoMockContext.Provider value={{ viewportHeight: 2000, itemHeight: 60 }}>
      <CartographiesPage />
    </VirtuosoMockContext.Provider>
  )
  const rendered = renderRoutes([{ path: 'cartographies/:filter?', element }], `/spotv2${entry}`)
  return { ...rendered, fetchMock }
}

describe('filtered cartographies', () => {
  it('lists the cartographies through POST /cartography/query, 50 at a time, each with its site', async () => {
    const { fetchMock } = renderCartographies()
    const card = await screen.findByRole('article', { name: "Atelier d'usinage" })
    expect(screen.getByRole('heading', { name: 'Cartographies' })).toBeInTheDocument()
    expect(screen.getByText('2 cartographies')).toBeInTheDocument()
    // No customer name in these tests: the title ends with the application's.
    expect(document.title).toBe('Cartographies - Spot')
    expect(await sentRequests(fetchMock, QUERY)[0].json()).toEqual({ filter: '', sort: '', page: 1, pageSize: 50 })
    expect(within(card).getByRole('link', { name: "Atelier d'usinage" })).toHaveAttribute('href', '/spotv2/cartography/2')
    expect(within(card).getByText('USI')).toBeInTheDocument()
    const where = within(card).getByRole('navigation', { name: 'Where the cartography is' })
    expect(within(where).getByRole('link', { name: 'Usine de Lyon' })).toHaveAttribute('href', '/spotv2/sites?cartographyId=2')
  })

  it('filters by site, found on the server 500 ms after typing stops, and names it in the summary', async () => {
    const { router, fetchMock } = renderCartographies('/cartographies', (filter) => (filter === '' ? CARTOGRAPHIES : CARTOGRAPHIES.slice(1)))
    await userEvent.click(await screen.findByRole('button', { name: 'Filter' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Add a criterion' }))
    const row = screen.getByRole('group', { name: 'Criterion 1' })
    await userEvent.click(within(row).getByRole('combobox', { name: 'Field' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Site' }))
    await userEvent.type(within(row).getByRole('combobox', { name: 'Value' }), 'lyo')
    await userEvent.click(await screen.findByRole('option', { name: 'Usine de Lyon' }))
    // One search for the whole word typed, of sites only.
    const searches = sentRequests(fetchMock, SEARCH).map((request) => new URL(request.url).searchParams)
    expect(searches.map((query) => [query.get('name'), query.get('types')])).toEqual([['lyo', 'site']])
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/cartographies/site%20oneOf%201'))
    expect(await screen.findByText('1 cartography')).toBeInTheDocument()
    expect(screen.queryByRole('article', { name: "Atelier d'usinage" })).not.toBeInTheDocument()
    expect(await sentRequests(fetchMock, QUERY).at(-1)?.json()).toEqual({ filter: 'site oneOf 1', sort: '', page: 1, pageSize: 50 })
  })

  it('names the members of a location criterion read from the address with POST /mapping/items/names', async () => {
    const { fetchMock } = renderCartographies(`/cartographies/${encodeURIComponent('location oneOf 1,3')}`)
    expect(await screen.findByText('Location is one of Usine de Lyon, Ligne d\'assemblage (Usine de Lyon)')).toBeInTheDocument()
    expect(await sentRequests(fetchMock, NAMES)[0].json()).toEqual([1, 3])
  })

  it('says when nothing matches a filter', async () => {
    renderCartographies(`/cartographies/${encodeURIComponent('name contains zzz')}`, () => [])
    expect(await screen.findByText('No cartography matches this filter.')).toBeInTheDocument()
  })

  it('says when no cartography is available', async () => {
    renderCartographies('/cartographies', () => [])
    expect(await screen.findByText('No cartography is available to you.')).toBeInTheDocument()
    expect(screen.getByText('0 cartographies')).toBeInTheDocument()
  })
})
