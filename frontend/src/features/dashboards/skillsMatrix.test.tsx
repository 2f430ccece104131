import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { routes } from '../../app/router'
import i18n from '../../i18n'
import { storeToken } from '../../lib/session'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import type { MatrixColumn, SkillsMatrix } from './api'
import { filtersFromSearch, searchFromFilters } from './skillsMatrix'

const API = '/backend/api/v2'
const MATRIX = `GET ${API}/dashboards/cartography/2/matrix`
const PAGE = '/spotv2/dashboards/qualifications/cartography/2/matrix'

const point = (days: number, valid: number, minimum: number) => ({
  days,
  date: '2026-07-01',
  valid,
  requalifying: 0,
  underMinimum: valid < minimum,
})
const column = (id: number, name: string, qualified: number, minimum: number, later: number[]): MatrixColumn => ({
  id,
  code: name.slice(0, 3).toUpperCase(),
  name,
  minimum,
  qualified,
  level: qualified === 0 ? 'none' : qualified === 1 ? 'single' : 'covered',
  underMinimum: qualified < minimum,
  counts: { valid: 1, expiring: 1, inProgress: 0, expired: 0, never: 0 },
  forecast: {
    function: { id, name },
    cartographyId: 2,
    minimum,
    outlook: 'falling',
    fallsOn: null,
    points: [point(0, qualified, minimum), ...later.map((valid, i) => point((i + 1) * 30, valid, minimum))],
  },
})

const MATRIX_ANSWER = {
  cartography: { id: 2, name: 'Atelier d’usinage', siteName: 'Usine de Lyon' },
  columns: [column(11, 'Cariste', 2, 2, [1, 1, 1]), column(12, 'Opérateur régleur', 3, 3, [3, 3, 2])],
  rows: [
    {
      id: 21,
      name: 'Gabriel Roux',
      held: 2,
      cells: [
        { state: 'expiring', validUntil: '2026-07-05' },
        { state: 'valid', validUntil: null },
      ],
    },
    {
      id: 22,
      name: 'Émilie Laurent',
      held: 0,
      cells: [
        { state: 'expired', validUntil: '2026-05-01' },
        { state: 'inProgress', validUntil: null },
      ],
    },
  ],
  groups: [{ id: 3, name: 'Opérateurs' }],
  functions: [
    { id: 11, name: 'Cariste' },
    { id: 12, name: 'Opérateur régleur' },
  ],
  totalPeople: 2,
  can: { editMinimum: true },
} satisfies SkillsMatrix

function signedInAs(permissions: string[], handlers: Parameters<typeof fakeServer>[0] = {}) {
  storeToken('token')
  return fakeServer({
    [`GET ${API}/account/whoAmI`]: () =>
      json({ id: 7, login: 'manager', firstName: 'Marc', lastName: 'Lefèvre', externalId: null, displayName: 'Marc Lefèvre', groups: [], permissions }),
    [`GET ${API}/organization/info`]: () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null }),
    [`GET ${API}/account/alerts`]: () => json({ alerts: [], count: 0 }),
    [`GET ${API}/discussion/unread`]: () => json([]),
    [MATRIX]: () => json(MATRIX_ANSWER),
    ...handlers,
  })
}

/** The names of the files the browser was asked to save. */
function watchSaves() {
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:matrix')
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
  const saved: string[] = []
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download)
  })
  return saved
}

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('the skills matrix', () => {
  it('shows a row per person and a column per function, each cell its state in words, the foot against the minimum', async () => {
    signedInAs(['perm_TableauBord'])
    renderRoutes(routes, PAGE)
    expect(await screen.findByRole('heading', { name: 'Skills matrix: Atelier d’usinage', level: 1 })).toBeInTheDocument()
    const table = screen.getByRole('table', { name: /Skills matrix of Atelier d’usinage/ })
    const headers = within(table).getAllByRole('columnheader').map((cell) => cell.textContent)
    expect(headers).toEqual(['Person', 'Cariste', 'Opérateur régleur', 'Functions held'])
    const gabriel = within(table).getByRole('rowheader', { name: 'Gabriel Roux' }).closest('tr') as HTMLElement
    const cells = within(gabriel).getAllByRole('cell')
    expect(cells.map((cell) => cell.getAttribute('data-state'))).toEqual(['expiring', 'valid', null])
    expect(cells[0]).toHaveTextContent('Expiring within 30 days 2026-07-05')
    expect(cells[1]).toHaveTextContent('Valid Permanent')
    expect(cells[2]).toHaveTextContent('2')
    const emilie = within(table).getByRole('rowheader', { name: 'Émilie Laurent' }).closest('tr') as HTMLElement
    expect(within(emilie).getAllByRole('cell')[1]).toHaveTextContent('In progress')
    // People qualified: Cariste 2 of 2; in 30 days 1, under its minimum.
    const qualified = within(table).getByRole('rowheader', { name: 'People qualified' }).closest('tr') as HTMLElement
    expect(within(qualified).getAllByRole('cell')[0]).toHaveTextContent(/^2$/)
    const in30 = within(table).getByRole('rowheader', { name: 'Qualified in 30 days' }).closest('tr') as HTMLElement
    expect(within(in30).getAllByRole('cell')[0]).toHaveTextContent('1, under the minimum')
    expect(within(gabriel).getByRole('link', { name: 'Gabriel Roux' })).toHaveAttribute('href', '/spotv2/dashboard/qualifications/user/21')
    expect(within(table).getByRole('link', { name: 'Cariste' })).toHaveAttribute('href', '/spotv2/function/11')
    expect(screen.getByText('2 of 2 people concerned')).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Skills matrix table (scrolls sideways)' })).toHaveAttribute('tabindex', '0')
  })

  it('asks the server again with the filters, which the address keeps', async () => {
    const fetchMock = signedInAs(['perm_TableauBord'])
    const { router } = renderRoutes(routes, PAGE)
    await userEvent.click(await screen.findByRole('combobox', { name: 'Groups' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Opérateurs' }))
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(router.state.location.search).toBe('?group=3'))
    await userEvent.click(screen.getByRole('combobox', { name: 'Sort' }))
    await userEvent.click(await screen.findByRole('option', { name: 'By functions held' }))
    await waitFor(() => expect(router.state.location.search).toBe('?group=3&sort=held'))
    await waitFor(() => expect(sentRequests(fetchMock, MATRIX).map((r) => new URL(r.url).search)).toContain('?group=3&sort=held'))
  })

  it('downloads the matrix as Excel or PDF with the filters shown, in the reader’s language', async () => {
    const fetchMock = signedInAs(['perm_TableauBord'], {
      [`${MATRIX}/excel`]: () => new Response('xlsx', { headers: { 'Content-Disposition': 'attachment; filename="skills-matrix.xlsx"' } }),
      [`${MATRIX}/pdf`]: () => new Response('pdf', { headers: { 'Content-Disposition': 'attachment; filename="skills-matrix.pdf"' } }),
    })
    const saved = watchSaves()
    renderRoutes(routes, `${PAGE}?state=expired`)
    await userEvent.click(await screen.findByRole('button', { name: 'Download the matrix as an Excel workbook' }))
    await waitFor(() => expect(sentRequests(fetchMock, `${MATRIX}/excel`)).toHaveLength(1))
    const [excel] = sentRequests(fetchMock, `${MATRIX}/excel`)
    expect(new URL(excel.url).search).toBe('?state=expired&sort=name')
    expect(excel.headers.get('Accept-Language')).toBe('en')
    await userEvent.click(screen.getByRole('button', { name: 'Download the matrix as a PDF' }))
    await waitFor(() => expect(saved).toEqual(['skills-matrix.xlsx', 'skills-matrix.pdf']))
    expect(new URL(sentRequests(fetchMock, `${MATRIX}/pdf`)[0].url).search).toBe('?state=expired&sort=name')
  })

  it('lets a qualification administrator change a minimum, and shows the server’s refusal on the field', async () => {
    let sent: unknown
    const fetchMock = signedInAs(['perm_TableauBord', 'perm_QualificationAdmin'], {
      [`PUT ${API}/qualifications/functions/11/minimum`]: async (request) => {
        sent = await request.json()
        return (sent as { minimum: number }).minimum > 1000
          ? errorBody(400, 'Bad Request', 'valueMustBeBetween', [{ field: 'minimum', code: 'valueMustBeBetween' }])
          : json({ functionId: 11, minimum: (sent as { minimum: number }).minimum })
      },
    })
    renderRoutes(routes, PAGE)
    await userEvent.click(await screen.findByRole('button', { name: 'Change the minimum of Cariste' }))
    const dialog = await screen.findByRole('dialog', { name: 'Minimum of qualified people: Cariste' })
    const field = within(dialog).getByRole('textbox', { name: 'Minimum' })
    await userEvent.clear(field)
    await userEvent.type(field, '5000')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText(/The value is out of the allowed range/)).toBeInTheDocument()
    expect(sent).toEqual({ minimum: 5000 })
    await userEvent.clear(field)
    await userEvent.type(field, '1')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(sent).toEqual({ minimum: 1 })
    await waitFor(() => expect(sentRequests(fetchMock, MATRIX).length).toBeGreaterThan(1))
  })

  it('offers no minimum to change without perm_QualificationAdmin', async () => {
    signedInAs(['perm_TableauBord'], { [MATRIX]: () => json({ ...MATRIX_ANSWER, can: { editMinimum: false } }) })
    renderRoutes(routes, PAGE)
    await screen.findByRole('table')
    expect(screen.queryByRole('button', { name: /Change the minimum/ })).not.toBeInTheDocument()
  })

  it('is not open without perm_TableauBord, and says so for a hidden cartography', async () => {
    const fetchMock = signedInAs(['perm_QualificationAdmin'])
    const { router } = renderRoutes(routes, PAGE)
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
    expect(sentRequests(fetchMock, MATRIX)).toHaveLength(0)
  })

  it('reads in French', async () => {
    signedInAs(['perm_TableauBord'])
    await i18n.changeLanguage('fr')
    renderRoutes(routes, PAGE)
    expect(await screen.findByRole('heading', { name: 'Matrice de compétences : Atelier d’usinage', level: 1 })).toBeInTheDocument()
    expect(screen.getByRole('rowheader', { name: 'Personnes qualifiées' })).toBeInTheDocument()
    expect(screen.getByText('05/07/2026')).toBeInTheDocument()
  })
})

describe('the matrix address', () => {
  it('carries the filters and sort, leaving out what it does not know', () => {
    const filters = filtersFromSearch(new URLSearchParams('group=3&group=x&function=11&state=expired&state=good&sort=held'))
    expect(filters).toEqual({ groups: [3], functions: [11], states: ['expired'], sort: 'held' })
    expect(searchFromFilters(filters).toString()).toBe('group=3&function=11&state=expired&sort=held')
    expect(searchFromFilters(filtersFromSearch(new URLSearchParams('sort=days'))).toString()).toBe('')
  })
})
