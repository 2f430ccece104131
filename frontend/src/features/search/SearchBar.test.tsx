import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderRoutes } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'
import { highlight, SearchBar } from './SearchBar'

// The bar alone in the header's place, and any page it leads to.
const routes = [
  { path: '/', element: <SearchBar /> },
  { path: '*', element: <main /> },
]

const SEARCH = 'GET /backend/api/v2/search'
const SITE = { id: 1, type: 'site', code: 'S1', name: 'Usine' }
const CARTOGRAPHY = { id: 7, type: 'cartography', code: 'C1', name: 'Atelier' }
const FUNCTION = { id: 9, type: 'function', code: 'F1', name: 'Régleur' }
const SUBJECT = { id: 51, type: 'subject', code: 'P51', name: 'Médiation d’équipe' }

const subject = (id: number, name: string) => ({
  id,
  type: 'subject',
  code: `P${id}`,
  name,
  context: [SITE, CARTOGRAPHY, FUNCTION],
  matches: [{ start: 0, length: 9 }],
})

const FOUND = {
  cartographies: {
    results: [{ id: 7, type: 'cartography', code: 'C1', name: 'Salle de médiation', context: [SITE], matches: [{ start: 9, length: 9 }] }],
    totalItems: 1,
  },
  functions: { results: [], totalItems: 0 },
  subjects: { results: [subject(51, 'Médiation d’équipe'), subject(52, 'Médiation annuelle')], totalItems: 12, more: false },
  nodes: {
    results: [
      {
        id: 900,
        type: 'mindmapNode',
        code: '3',
        name: 'Préparer la médiation',
        context: [SITE, CARTOGRAPHY, FUNCTION, SUBJECT],
        matches: [{ start: 12, length: 9 }],
        status: 'empty',
      },
    ],
    totalItems: 100,
    more: true,
  },
}

function signedIn() {
  return fakeServer({
    [SEARCH]: (request) => {
      const category = new URL(request.url).searchParams.get('category')
      if (category === 'subjects') {
        const many = Array.from({ length: 12 }, (_, n) => subject(100 + n, `Médiation ${n}`))
        return json({ subjects: { results: many, totalItems: 12 } })
      }
      return json(FOUND)
    },
  })
}

const searches = (server: ReturnType<typeof fakeServer>) =>
  sentRequests(server, SEARCH).map((request) => Object.fromEntries(new URL(request.url).searchParams))

/** The text entered at once (pasted): how many searches keys typed one by one cause depends on the
 * machine's speed (lib/useDebouncedValue.test.ts holds the debounce). */
async function typeIn(text: string) {
  const field = await screen.findByRole('combobox', { name: 'Search cartographies, functions, subjects and nodes' })
  await userEvent.click(field)
  await userEvent.paste(text)
  return field
}

describe('the search bar', () => {
  it('asks once for the text, and lists the four categories with their counts', async () => {
    const server = signedIn()
    renderRoutes(routes, '/spotv2/')
    const field = await typeIn('médiation')
    expect(field).toHaveAttribute('placeholder', 'Search…')
    const listbox = await screen.findByRole('listbox', { name: 'Search results' })
    expect(searches(server)).toEqual([{ text: 'médiation', limit: '5' }])
    expect(field).toHaveAttribute('aria-expanded', 'true')
    const groups = within(listbox).getAllByRole('group')
    expect(groups.map((group) => group.getAttribute('aria-labelledby') && document.getElementById(group.getAttribute('aria-labelledby') ?? '')?.textContent)).toEqual([
      'Cartographies (1)',
      'Functions (0)',
      'Subjects (12)',
      'Mind-map nodes (more than 100)',
    ])
    expect(within(groups[2]).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'UsineAtelierRégleurMédiation d’équipe',
      'UsineAtelierRégleurMédiation annuelle',
      'Show more Subjects',
    ])
  })

  it('asks from the first character on', async () => {
    const server = signedIn()
    renderRoutes(routes, '/spotv2/')
    await typeIn('m')
    await screen.findByRole('listbox')
    expect(searches(server)).toEqual([{ text: 'm', limit: '5' }])
    expect(screen.getByText('With 1 or 2 characters, the names that begin with them.')).toBeInTheDocument()
  })

  it('highlights the matched text of each name', async () => {
    signedIn()
    renderRoutes(routes, '/spotv2/')
    await typeIn('mediation')
    const node = await screen.findByRole('option', { name: /Préparer la médiation/ })
    expect(node.querySelector('mark')).toHaveTextContent('médiation')
    expect(within(node).getByText('Préparer la', { exact: false })).toBeInTheDocument()
  })

  it('follows a clicked result to its page and resets', async () => {
    signedIn()
    const { router } = renderRoutes(routes, '/spotv2/')
    const field = await typeIn('médiation')
    await userEvent.click(await screen.findByRole('option', { name: /Préparer la médiation/ }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/subject/51'))
    expect(field).toHaveValue('')
    expect(field).toHaveAttribute('aria-expanded', 'false')
  })

  it('follows a chip of the context to its page', async () => {
    signedIn()
    const { router } = renderRoutes(routes, '/spotv2/')
    await typeIn('médiation')
    const option = await screen.findByRole('option', { name: /Médiation annuelle/ })
    await userEvent.click(within(option).getByText('Atelier'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/cartography/7'))
  })

  it('is used with the keyboard: arrows move through the results, Enter follows, Escape closes', async () => {
    const server = signedIn()
    const { router } = renderRoutes(routes, '/spotv2/')
    const field = await typeIn('médiation')
    await screen.findByRole('listbox')
    await userEvent.keyboard('{ArrowDown}')
    const first = screen.getByRole('option', { name: /Salle de médiation/ })
    expect(field).toHaveAttribute('aria-activedescendant', first.id)
    expect(first).toHaveAttribute('aria-selected', 'true')
    await userEvent.keyboard('{ArrowUp}')
    expect(field).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: 'Show more Mind-map nodes' }).id)
    await userEvent.keyboard('{Escape}')
    expect(field).toHaveAttribute('aria-expanded', 'false')
    await userEvent.keyboard('{ArrowDown}')
    expect(field).toHaveAttribute('aria-expanded', 'true')
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}')
    const more = screen.getByRole('option', { name: 'Show more Subjects' })
    expect(field).toHaveAttribute('aria-activedescendant', more.id)
    await userEvent.keyboard('{Enter}')
    await waitFor(() => expect(screen.getAllByRole('option', { name: /Médiation \d+/ })).toHaveLength(12))
    expect(searches(server).at(-1)).toEqual({ text: 'médiation', limit: '30', category: 'subjects' })
    expect(screen.queryByRole('option', { name: 'Show more Subjects' })).not.toBeInTheDocument()
    // The line the keyboard was on is now the first of those shown.
    expect(field).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: /Médiation 2$/ }).id)
    await userEvent.keyboard('{Enter}')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/subject/102'))
    expect(field).toHaveValue('')
  })

  it('clears the text with its button', async () => {
    signedIn()
    renderRoutes(routes, '/spotv2/')
    const field = await typeIn('médiation')
    await userEvent.click(screen.getByRole('button', { name: 'Clear the search' }))
    expect(field).toHaveValue('')
    expect(screen.queryByRole('button', { name: 'Clear the search' })).not.toBeInTheDocument()
  })
})

describe('highlight', () => {
  it('marks each span of the name', () => {
    const { container } = render(<p>{highlight('Écrou, écrou', [{ start: 7, length: 5 }, { start: 0, length: 5 }])}</p>)
    expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['Écrou', 'écrou'])
    expect(container.textContent).toBe('Écrou, écrou')
  })
})
