import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { VirtuosoMockContext } from 'react-virtuoso'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import fixture from '../../lib/querylang/roundtrip.fixture.json'
import type { ListQuery } from '../../lib/querylang/types'
import { renderRoutes } from '../../test/render'
import { fakeServer, json } from '../../test/server'
import { FilteredListPage, PAGE_SIZE } from './FilteredListPage'
import { CHECK_CALL, checkAnswer, FIELDS_CALL, fieldsAnswer, FILTERS_CALL, PARSE_CALL, parseAnswer } from './testServer'

interface Item {
  id: number
  name: string
}

/** A list of `total` items answered page by page, as POST /<entity>/query does. */
function pagedList(total: number) {
  return vi.fn(async ({ page, pageSize }: ListQuery) => {
    const first = (page - 1) * pageSize + 1
    const ids = Array.from({ length: Math.max(0, Math.min(pageSize, total - first + 1)) }, (_v, i) => first + i)
    return { results: ids.map((id): Item => ({ id, name: `Item ${id}` })), totalItems: total }
  })
}

// Every item of a page is drawn, so that the end of the list comes into view.
const MOCK_SIZES = { viewportHeight: 100_000, itemHeight: 20 }

function renderList(entry: string, fetchPage = pagedList(3), savedFilters: object = {}) {
  fakeServer({ [FIELDS_CALL]: fieldsAnswer, [PARSE_CALL]: parseAnswer, [CHECK_CALL]: checkAnswer, [FILTERS_CALL]: () => json(savedFilters) })
  const page = (
    <VirtuosoMockContext.Provider value={MOCK_SIZES}>
      <FilteredListPage<Item>
        entityType="subject"
        basePath="/subjects"
        listKey={['tests', 'subjects']}
        fetchPage={fetchPage}
        itemKey={(item) => item.id}
        renderItem={(item, { targeted }) => <div data-testid={targeted ? 'targeted' : undefined}>{item.name}</div>}
        fieldLabel={(field) => `F:${field}`}
        title="Subjects"
      />
    </VirtuosoMockContext.Provider>
  )
  const rendered = renderRoutes([{ path: 'subjects/:filter?', element: page }], `/spotv2${entry}`)
  return { ...rendered, fetchPage }
}

const pagesAsked = (fetchPage: ReturnType<typeof pagedList>) => fetchPage.mock.calls.map(([query]) => query.page)

beforeEach(() => {
  // Scrolling to a target: jsdom has no layout to scroll.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined)
  Element.prototype.scrollIntoView = vi.fn()
})

describe('filtered list page', () => {
  it('shows the total and loads the next page of 50 when the end of the list comes into view', async () => {
    const { fetchPage } = renderList('/subjects', pagedList(120))
    expect(await screen.findByText('120 results')).toBeInTheDocument()
    expect(fetchPage).toHaveBeenCalledWith({ filter: '', sort: '', page: 1, pageSize: PAGE_SIZE })
    expect(await screen.findByText('Item 100')).toBeInTheDocument()
    expect(pagesAsked(fetchPage)).toEqual([1, 2])
  })

  it('asks for no page beyond the total', async () => {
    const { fetchPage } = renderList('/subjects', pagedList(30))
    expect(await screen.findByText('Item 30')).toBeInTheDocument()
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(pagesAsked(fetchPage)).toEqual([1])
  })

  it('loads pages until the targeted item is there, and marks it', async () => {
    const { fetchPage } = renderList('/subjects?target=130', pagedList(400))
    expect(await screen.findByTestId('targeted')).toHaveTextContent('Item 130')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(pagesAsked(fetchPage)).toEqual([1, 2, 3])
  })

  it('brings a targeted item of the first page to the middle of the window', async () => {
    const scrolled = vi.mocked(Element.prototype.scrollIntoView)
    renderList('/subjects?target=12', pagedList(30))
    expect(await screen.findByTestId('targeted')).toHaveTextContent('Item 12')
    await waitFor(() => expect(scrolled).toHaveBeenCalledWith({ block: 'center' }))
    expect(scrolled.mock.contexts[0]).toContainElement(screen.getByTestId('targeted'))
  })

  it('says so when the targeted item is in no page', async () => {
    const { fetchPage } = renderList('/subjects?target=999', pagedList(60))
    expect(await screen.findByText('The requested item is not in this list.')).toBeInTheDocument()
    expect(pagesAsked(fetchPage)).toEqual([1, 2])
  })

  it('shows the empty-list text', async () => {
    renderList('/subjects', pagedList(0))
    expect(await screen.findByText('Nothing matches this filter.')).toBeInTheDocument()
    expect(screen.getByText('0 results')).toBeInTheDocument()
  })

  it('reads the filter and the sort from the address', async () => {
    const c = fixture.cases[2]
    const { fetchPage } = renderList(`/subjects/${encodeURIComponent(c.text)}?sorting=-created_date`)
    await waitFor(() => expect(fetchPage).toHaveBeenCalledWith({ filter: c.text, sort: '-created_date', page: 1, pageSize: PAGE_SIZE }))
    expect(await screen.findByRole('button', { name: 'F:created_date, descending' })).toBeInTheDocument()
    expect(screen.getByRole('group', { name: 'Filter:' })).toHaveTextContent('F:name is “a & b | (c) \\ d, e”')
  })

  it('applies the edited filter through the address, encoded in one segment', async () => {
    const { router, fetchPage } = renderList('/subjects?sorting=name')
    await userEvent.click(await screen.findByRole('button', { name: 'Filter' }))
    // The editor is loaded when first opened.
    await userEvent.click(await screen.findByRole('button', { name: 'Add a criterion' }))
    const row = screen.getByRole('group', { name: 'Criterion 1' })
    await userEvent.click(within(row).getByRole('combobox', { name: 'Field' }))
    await userEvent.click(await screen.findByRole('option', { name: 'F:name' }))
    await userEvent.type(within(row).getByRole('textbox', { name: 'Value' }), 'a/b')
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/subjects/name%20contains%20a%2Fb'))
    expect(router.state.location.search).toBe('?sorting=name')
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith({ filter: 'name contains a/b', sort: 'name', page: 1, pageSize: PAGE_SIZE }))
  })

  it('applies the default saved filter with applyDefaultFilter=true, then replaces the address with it', async () => {
    const c = fixture.cases[0]
    const savedFilters = {
      subject: {
        version: 2,
        filters: [
          { name: 'Other', filter: 'code equals \\0', sorting: '', isDefault: false },
          { name: 'Mine', filter: c.text, sorting: '-created_date', isDefault: true },
        ],
      },
    }
    const { router, fetchPage } = renderList('/subjects?applyDefaultFilter=true', pagedList(3), savedFilters)
    await waitFor(() => expect(router.state.location.pathname).toBe(`/spotv2/subjects/${encodeURIComponent(c.text)}`))
    expect(router.state.location.search).toBe('?sorting=-created_date')
    expect(router.state.historyAction).toBe('REPLACE')
    await waitFor(() => expect(fetchPage).toHaveBeenCalledWith({ filter: c.text, sort: '-created_date', page: 1, pageSize: PAGE_SIZE }))
    expect(fetchPage.mock.calls.every(([query]) => query.filter === c.text)).toBe(true)
  })

  it('keeps the address’s filter with applyDefaultFilter=true when there is no default', async () => {
    const { router, fetchPage } = renderList('/subjects?applyDefaultFilter=true', pagedList(3), { subject: { version: 1, filters: [] } })
    await waitFor(() => expect(router.state.location.search).toBe(''))
    expect(router.state.location.pathname).toBe('/spotv2/subjects')
    await waitFor(() => expect(fetchPage).toHaveBeenCalledWith({ filter: '', sort: '', page: 1, pageSize: PAGE_SIZE }))
  })

  it('shows a filter the server refuses on the editor, not in the error dialog', async () => {
    const fetchPage = vi.fn(async () => Promise.reject(new Error('never asked')))
    renderList(`/subjects/${encodeURIComponent('name contains !')}`, fetchPage as never)
    expect(await screen.findByRole('alert')).toHaveTextContent('Unexpected character (character 15)')
    expect(screen.getByRole('button', { name: 'Filter' })).toHaveAttribute('aria-expanded', 'true')
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })
})
