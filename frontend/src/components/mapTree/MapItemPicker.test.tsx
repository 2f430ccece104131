import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithClient } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'
import { MapItemPicker } from './MapItemPicker'

const API = '/backend/api/v2'

function server() {
  return fakeServer({
    [`GET ${API}/site`]: () => json([{ id: 1, code: 'LYO', name: 'Lyon', cartographies: [{ id: 2, code: 'ASM', name: 'Assembly' }] }]),
    [`GET ${API}/cartography/2/activities`]: () =>
      json([{ id: 3, code: 'W', name: 'Welding', cartographyId: 2, parentId: null, hasSubActivities: true, subjectsCount: 0 }]),
    [`GET ${API}/activity/3/subActivities`]: () =>
      json([{ id: 4, code: 'WT', name: 'Tack welding', cartographyId: 2, parentId: 3, hasSubActivities: false, subjectsCount: 0 }]),
    [`GET ${API}/cartography/2/functions`]: () => json([{ id: 5, code: 'OP', name: 'Operator' }]),
    [`POST ${API}/subject/query`]: async (request) => {
      const body = (await request.json()) as { filter: string; page: number }
      if (body.filter === 'function oneOf 5') {
        // Pages of 50 on the server; three subjects here stand for the first page.
        const results = body.page === 1 ? [0, 1, 2].map((i) => ({ id: 100 + i, name: `Subject ${i}`, contexts: [] })) : [{ id: 200, name: 'Last subject', contexts: [] }]
        return json({ results, totalItems: 4 })
      }
      return json({ results: [{ id: 9, name: 'Pump leak', contexts: [[{ id: 1, code: 'LYO', name: 'Lyon', type: 'site' }, { id: 5, code: 'OP', name: 'Operator', type: 'function' }]] }], totalItems: 1 })
    },
    [`GET ${API}/mapping/items/search`]: () =>
      json([{ id: 5, type: 'function', code: 'OP', name: 'Pump operator', context: [{ id: 1, code: 'LYO', name: 'Lyon', type: 'site' }, { id: 2, code: 'ASM', name: 'Assembly', type: 'cartography' }] }]),
  })
}

const item = (name: RegExp) => screen.findByRole('treeitem', { name })
/** A click on an item's row (its label and icons), where the tree listens. */
const clickItem = async (name: RegExp) => userEvent.click((await item(name)).querySelector('.MuiTreeItem-content') as HTMLElement)

describe('the map item picker', () => {
  it('opens branches by keyboard and returns the chosen item with where it sits', async () => {
    server()
    const onPick = vi.fn()
    renderWithClient(<MapItemPicker title="Choose" onPick={onPick} onClose={() => {}} />)
    const site = await item(/^Lyon/)
    site.focus()
    await userEvent.keyboard('{ArrowRight}')
    await userEvent.keyboard('{ArrowDown}{ArrowRight}')
    expect(await item(/^Welding/)).toBeInTheDocument()
    expect(await item(/^Operator\s*Function/)).toBeInTheDocument()
    await userEvent.keyboard('{ArrowDown}{ArrowRight}')
    await item(/^Tack welding/)
    await userEvent.keyboard('{ArrowDown}{Enter}')
    expect(screen.getByText('Selected: Tack welding')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Choose' }))
    expect(onPick).toHaveBeenCalledWith({
      type: 'activity',
      id: 4,
      name: 'Tack welding',
      context: [
        { type: 'site', id: 1, name: 'Lyon' },
        { type: 'cartography', id: 2, name: 'Assembly' },
        { type: 'activity', id: 3, name: 'Welding' },
      ],
    })
  })

  it('lists the subjects of a function by pages, and picks any node, sites too', async () => {
    const fetch = server()
    const onPick = vi.fn()
    renderWithClient(<MapItemPicker title="Choose" onPick={onPick} onClose={() => {}} />)
    expect(screen.getByRole('button', { name: 'Choose' })).toBeDisabled()
    const site = await item(/^Lyon/)
    site.focus()
    await userEvent.keyboard('{ArrowRight}{ArrowDown}{ArrowRight}')
    const operator = await item(/^Operator/)
    operator.focus()
    await userEvent.keyboard('{ArrowRight}')
    expect(await item(/^Subject 2/)).toBeInTheDocument()
    await clickItem(/^Show 1 more subject/)
    expect(await item(/^Last subject/)).toBeInTheDocument()
    expect(sentRequests(fetch, `POST ${API}/subject/query`)).toHaveLength(2)
    await clickItem(/^Lyon/)
    await userEvent.click(screen.getByRole('button', { name: 'Choose' }))
    expect(onPick).toHaveBeenCalledWith({ type: 'site', id: 1, name: 'Lyon', context: [] })
  })

  it('finds items and subjects by name as a shortcut', async () => {
    server()
    const onPick = vi.fn()
    renderWithClient(<MapItemPicker title="Choose" onPick={onPick} onClose={() => {}} />)
    await userEvent.type(screen.getByRole('textbox', { name: /^Search the map/ }), 'pump')
    const results = await screen.findByRole('list', { name: 'Items found' })
    await waitFor(() => expect(within(results).getAllByRole('button')).toHaveLength(2))
    expect(within(results).getByText('Lyon › Assembly')).toBeInTheDocument()
    await userEvent.click(within(results).getByRole('button', { name: /Pump leak/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Choose' }))
    expect(onPick).toHaveBeenCalledWith({ type: 'subject', id: 9, name: 'Pump leak', context: [{ type: 'site', id: 1, name: 'Lyon' }, { type: 'function', id: 5, name: 'Operator' }] })
  })
})
