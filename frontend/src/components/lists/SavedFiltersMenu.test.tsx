import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { SavedFilter } from '../../lib/querylang/types'
import { renderWithClient } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { SavedFiltersMenu } from './SavedFiltersMenu'
import { FILTERS_CALL, SAVE_FILTERS_CALL } from './testServer'

const saved = (name: string, isDefault = false): SavedFilter => ({ name, filter: `name contains ${name}`, sorting: '', isDefault })
const SUBJECT_FILTERS = [saved('Pompes'), saved('Mine', true), saved('Électricité')]
const CURRENT = { filter: 'code equals X', sorting: '-name' }

function renderMenu(props: { currentProblem?: string } = {}) {
  const fetchMock = fakeServer({
    [FILTERS_CALL]: () => json({ subject: { version: 4, filters: SUBJECT_FILTERS }, mediation: { version: 1, filters: [saved('Other', true)] } }),
    [SAVE_FILTERS_CALL]: () => new Response(null, { status: 204 }),
  })
  const onApply = vi.fn()
  renderWithClient(<SavedFiltersMenu entityType="subject" current={CURRENT} onApply={onApply} {...props} />)
  return { fetchMock, onApply }
}

async function openMenu() {
  await userEvent.click(screen.getByRole('button', { name: /Saved filters/ }))
  return screen.findByRole('dialog', { name: 'Saved filters' })
}

async function sentLists(fetchMock: ReturnType<typeof fakeServer>) {
  await waitFor(() => expect(sentRequests(fetchMock, SAVE_FILTERS_CALL)).toHaveLength(1))
  return sentRequests(fetchMock, SAVE_FILTERS_CALL)[0].json()
}

describe('saved filters menu', () => {
  it('lists the filters of its entity type and applies the chosen one', async () => {
    const { onApply } = renderMenu()
    const menu = await openMenu()
    const list = within(menu).getByRole('list', { name: 'Saved filters' })
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringContaining('Pompes'),
      expect.stringContaining('Mine'),
      expect.stringContaining('Électricité'),
    ])
    expect(within(menu).queryByText('Other')).not.toBeInTheDocument()
    await userEvent.click(within(menu).getByText('Pompes'))
    expect(onApply).toHaveBeenCalledWith(saved('Pompes'))
  })

  it('makes one filter the default, and only that one', async () => {
    const { fetchMock } = renderMenu()
    const menu = await openMenu()
    expect(within(menu).getByRole('button', { name: 'Default filter: Mine' })).toHaveAttribute('aria-pressed', 'true')
    await userEvent.click(within(menu).getByRole('button', { name: 'Default filter: Pompes' }))
    expect(await sentLists(fetchMock)).toEqual({
      entityType: 'subject',
      filters: [saved('Pompes', true), saved('Mine'), saved('Électricité')],
      version: 4,
    })
  })

  it('saves the current filter and sort under a name that follows the text rule and is not taken', async () => {
    const { fetchMock } = renderMenu()
    await userEvent.click(within(await openMenu()).getByText('Save the current filter…'))
    const dialog = await screen.findByRole('dialog', { name: 'Save the current filter' })
    const name = within(dialog).getByRole('textbox', { name: 'Name' })
    const save = within(dialog).getByRole('button', { name: 'Save' })
    await userEvent.click(save)
    expect(within(dialog).getByText("This field can't stay empty")).toBeInTheDocument()
    await userEvent.type(name, 'Mine ')
    expect(within(dialog).getByText('Text may not begin or end with whitespace')).toBeInTheDocument()
    await userEvent.clear(name)
    await userEvent.type(name, 'électricité')
    expect(within(dialog).getByText('A saved filter already has this name')).toBeInTheDocument()
    expect(within(dialog).getByText('At least one error remains to be corrected')).toBeInTheDocument()
    expect(sentRequests(fetchMock, SAVE_FILTERS_CALL)).toHaveLength(0)

    await userEvent.clear(name)
    await userEvent.type(name, 'Codes X')
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Make it my default filter' }))
    await userEvent.click(save)
    expect(await sentLists(fetchMock)).toEqual({
      entityType: 'subject',
      filters: [saved('Pompes'), saved('Mine'), saved('Électricité'), { name: 'Codes X', ...CURRENT, isDefault: true }],
      version: 4,
    })
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Save the current filter' })).not.toBeInTheDocument())
  })

  it('cannot save a filter with errors, and says why', async () => {
    renderMenu({ currentProblem: 'filterHasErrors' })
    const menu = await openMenu()
    const item = within(menu).getByRole('button', { name: /Save the current filter/ })
    expect(item).toHaveAttribute('aria-disabled', 'true')
    expect(item).toHaveTextContent('The filter or the sort holds an error')
  })

  it('renames a filter', async () => {
    const { fetchMock } = renderMenu()
    await userEvent.click(within(await openMenu()).getByRole('button', { name: 'Rename Pompes' }))
    const dialog = await screen.findByRole('dialog', { name: 'Rename “Pompes”' })
    const name = within(dialog).getByRole('textbox', { name: 'Name' })
    expect(name).toHaveValue('Pompes')
    await userEvent.clear(name)
    await userEvent.type(name, 'Pumps')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect((await sentLists(fetchMock)).filters.map((f: SavedFilter) => f.name)).toEqual(['Pumps', 'Mine', 'Électricité'])
  })

  it('deletes a filter after confirmation', async () => {
    const { fetchMock } = renderMenu()
    await userEvent.click(within(await openMenu()).getByRole('button', { name: 'Delete Mine' }))
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Delete this saved filter?' })).getByRole('button', { name: 'Delete' }))
    expect((await sentLists(fetchMock)).filters).toEqual([saved('Pompes'), saved('Électricité')])
  })

  it('names every filter the same way, by its name, never by its query text', async () => {
    renderMenu()
    const menu = await openMenu()
    const items = within(within(menu).getByRole('list', { name: 'Saved filters' })).getAllByRole('listitem')
    expect(items.map((item) => item.textContent)).toEqual(['Pompes', 'MineDefault filter', 'Électricité'])
    for (const filter of SUBJECT_FILTERS) expect(within(menu).queryByText(filter.filter)).not.toBeInTheDocument()
  })

  describe('when another window saved meanwhile', () => {
    /** A server that versions the list as Spot's does: a save must name the version it was built from. */
    function versionedServer() {
      const state = { version: 1, filters: SUBJECT_FILTERS, sent: [] as number[] }
      const fetchMock = fakeServer({
        [FILTERS_CALL]: () => json({ subject: { version: state.version, filters: state.filters } }),
        [SAVE_FILTERS_CALL]: async (request) => {
          const sent = (await request.json()) as { filters: SavedFilter[]; version: number }
          state.sent.push(sent.version)
          if (sent.version !== state.version) return errorBody(409, 'Conflict', 'staleVersion')
          state.filters = sent.filters
          state.version += 1
          return new Response(null, { status: 204 })
        },
      })
      renderWithClient(<SavedFiltersMenu entityType="subject" current={CURRENT} onApply={vi.fn()} />)
      const elsewhere = () => {
        state.filters = [...SUBJECT_FILTERS, saved('From elsewhere')]
        state.version = 2
      }
      return { fetchMock, state, elsewhere }
    }

    it('refuses to erase that filter, keeps the typed name, and saves again from the list read anew', async () => {
      const { fetchMock, state, elsewhere } = versionedServer()
      const menu = await openMenu()
      await within(menu).findByText('Pompes')
      elsewhere()
      await userEvent.click(within(menu).getByText('Save the current filter…'))
      const dialog = await screen.findByRole('dialog', { name: 'Save the current filter' })
      const name = within(dialog).getByRole('textbox', { name: 'Name' })
      await userEvent.type(name, 'Codes X')
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
      expect(await within(dialog).findByText(/changed in another window/)).toBeInTheDocument()
      expect(name).toHaveValue('Codes X')
      expect(state.filters.map((f) => f.name)).toContain('From elsewhere')

      await waitFor(() => expect(sentRequests(fetchMock, FILTERS_CALL).length).toBeGreaterThan(1))
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
      await waitFor(() => expect(state.version).toBe(3))
      expect(state.filters.map((f) => f.name)).toEqual(['Pompes', 'Mine', 'Électricité', 'From elsewhere', 'Codes X'])
      expect(state.sent).toEqual([1, 2])
    })

    it('saves twice in a row, the second time from the version the first one made', async () => {
      const { state } = versionedServer()
      const menu = await openMenu()
      await userEvent.click(await within(menu).findByRole('button', { name: 'Default filter: Pompes' }))
      await waitFor(() => expect(state.version).toBe(2))
      await waitFor(() => expect(within(menu).getByRole('button', { name: 'Default filter: Mine' })).toBeEnabled())
      await userEvent.click(within(menu).getByRole('button', { name: 'Default filter: Mine' }))
      await waitFor(() => expect(state.version).toBe(3))
      expect(state.sent).toEqual([1, 2])
      expect(state.filters.filter((f) => f.isDefault).map((f) => f.name)).toEqual(['Mine'])
    })

    it('says so when a menu action is refused, and the list shows the other window’s filter', async () => {
      const { state, elsewhere } = versionedServer()
      const menu = await openMenu()
      await within(menu).findByText('Pompes')
      elsewhere()
      await userEvent.click(within(menu).getByRole('button', { name: 'Default filter: Pompes' }))
      expect(await screen.findByText(/changed in another window/)).toBeInTheDocument()
      expect(state.version).toBe(2)
      expect(await within(menu).findByText('From elsewhere')).toBeInTheDocument()
      expect(state.sent).toEqual([1])
    })
  })
})
