import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { EditMediationPage, NewMediationPage } from './MediationFormPage'

const CREATE = 'POST /backend/api/v2/mediation'
const UNPLANNED = 'POST /backend/api/v2/mediation/unplanned'
const SEARCH = 'GET /backend/api/v2/user/search'
const NOW = new Date(2026, 11, 1, 10, 0, 30)

const USERS = [
  { id: 3, displayName: 'Émilie Laurent' },
  { id: 7, displayName: 'Paul Martin' },
  { id: 8, displayName: 'Pauline Bernard (E42)' },
]

function searchAnswer(request: Request) {
  const name = (new URL(request.url).searchParams.get('name') ?? '').toLowerCase()
  return json(USERS.filter((user) => user.displayName.toLowerCase().includes(name)).map((user) => ({ ...user, login: `u${user.id}`, firstName: '', lastName: '', externalId: null })))
}

function server(extra: Record<string, (request: Request) => Response | Promise<Response>> = {}) {
  return fakeServer({
    'GET /backend/api/v2/account/whoAmI': () =>
      json({ id: 3, login: 'emilie', firstName: 'Émilie', lastName: 'Laurent', externalId: null, displayName: 'Émilie Laurent', groups: [], permissions: [] }),
    [SEARCH]: searchAnswer,
    'GET /backend/api/v2/user/searchGroup': () => json([{ id: 4, name: 'Qualité' }]),
    ...extra,
  })
}

const routes = [
  { path: 'mediation/add', Component: NewMediationPage },
  { path: 'mediation/edit/:mediationId', Component: EditMediationPage },
  { path: 'mediation/view/:mediationId', Component: () => null },
  { path: 'mediations/:filter?', Component: () => null },
  { path: 'forbidden', Component: () => null },
]

beforeEach(() => {
  // Only the clock is fixed: the pickers' 500 ms debounce runs on real timers.
  vi.useFakeTimers({ toFake: ['Date'], now: NOW })
})

afterEach(() => {
  vi.useRealTimers()
})

const field = (name: string) => screen.getByRole('group', { name: new RegExp(`^${name}`) })

/** Types digits into a section (hours, minutes…) of a date or time field. */
async function typeSection(group: HTMLElement, section: string, digits: string) {
  await userEvent.click(within(group).getByRole('spinbutton', { name: section }))
  await userEvent.keyboard(digits)
}

/** The text entered at once (pasted): how many searches keys typed one by one cause depends on the
 * machine's speed (lib/useDebouncedValue.test.ts holds the debounce). */
async function pick(label: RegExp, text: string, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }))
  await userEvent.paste(text)
  await userEvent.click(await screen.findByRole('option', { name: option }))
}

describe('new mediation', () => {
  it('starts at the next full hour with the user as mediator, so only participants are missing', async () => {
    const fetchMock = server({ [CREATE]: () => json({ id: 14 }) })
    const { router } = renderRoutes(routes, '/spotv2/mediation/add')
    expect(await screen.findByRole('heading', { name: 'New mediation' })).toBeInTheDocument()
    expect(document.title).toBe('New mediation - Spot')
    expect(screen.getByRole('combobox', { name: /^Mediator/ })).toHaveValue('Émilie Laurent')
    expect(field('Date')).toHaveTextContent('2026-12-01')
    expect(field('Time')).toHaveTextContent('11:00')
    await userEvent.type(screen.getByRole('textbox', { name: /^Title/ }), 'Réglage du tour')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('A value must be chosen')).toBeInTheDocument()
    expect(screen.queryByText('Too early: choose a later value')).not.toBeInTheDocument()
    expect(sentRequests(fetchMock, CREATE)).toHaveLength(0)
    await pick(/^Participants/, 'paul', 'Paul Martin')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/mediation/view/14'))
    expect(await sentRequests(fetchMock, CREATE)[0].json()).toMatchObject({ schedulingDate: new Date(2026, 11, 1, 11, 0).toISOString() })
  })

  it('saves a mediation scheduled tomorrow with two participants, each found by one search', async () => {
    const fetchMock = server({ [CREATE]: () => json({ id: 12 }) })
    const { router } = renderRoutes(routes, '/spotv2/mediation/add')
    await userEvent.type(await screen.findByRole('textbox', { name: /^Title/ }), 'Réglage du tour')
    await userEvent.type(screen.getByRole('textbox', { name: 'Description' }), 'Première ligne{Enter}Deuxième ligne')
    await pick(/^Participants/, 'paul', 'Paul Martin')
    await pick(/^Participants/, 'pauline', 'Pauline Bernard (E42)')
    // One search per text entered.
    expect(sentRequests(fetchMock, SEARCH).map((request) => new URL(request.url).searchParams.get('name'))).toEqual(['paul', 'pauline'])
    await userEvent.click(screen.getByRole('button', { name: /^Choose date/ }))
    await userEvent.click(await screen.findByRole('gridcell', { name: '2' }))
    await waitFor(() => expect(field('Date')).toHaveTextContent('2026-12-02'))
    await typeSection(field('Time'), 'Hours', '09')
    await typeSection(field('Time'), 'Minutes', '30')
    await waitFor(() => expect(field('Time')).toHaveTextContent('09:30'))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/mediation/view/12'))
    expect(await sentRequests(fetchMock, CREATE)[0].json()).toEqual({
      title: 'Réglage du tour',
      description: 'Première ligne\nDeuxième ligne',
      schedulingDate: new Date(2026, 11, 2, 9, 30).toISOString(),
      mediator: 3,
      participants: [7, 8],
      visibleByGroups: [],
      visibleByPersons: [],
    })
  })

  it('makes it visible to the groups and persons chosen, found on the server', async () => {
    const fetchMock = server({ [CREATE]: () => json({ id: 13 }) })
    const { router } = renderRoutes(routes, '/spotv2/mediation/add')
    await userEvent.type(await screen.findByRole('textbox', { name: /^Title/ }), 'Réglage du tour')
    await pick(/^Participants/, 'paul', 'Paul Martin')
    await pick(/^Groups/, 'qual', 'Qualité')
    await pick(/^Persons/, 'pauline', 'Pauline Bernard (E42)')
    expect(new URL(sentRequests(fetchMock, 'GET /backend/api/v2/user/searchGroup')[0].url).searchParams.get('name')).toBe('qual')
    await typeSection(field('Time'), 'Hours', '23')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/mediation/view/13'))
    expect(await sentRequests(fetchMock, CREATE)[0].json()).toMatchObject({ participants: [7], visibleByGroups: [4], visibleByPersons: [8] })
  })

  it('refuses the mediator among the participants', async () => {
    const fetchMock = server()
    renderRoutes(routes, '/spotv2/mediation/add')
    await userEvent.type(await screen.findByRole('textbox', { name: /^Title/ }), 'Réglage du tour')
    await pick(/^Participants/, 'émilie', 'Émilie Laurent')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('The mediator cannot be a participant')).toBeInTheDocument()
    expect(sentRequests(fetchMock, CREATE)).toHaveLength(0)
  })

  it('writes the date DD/MM/YYYY in French', async () => {
    const { default: i18n } = await import('../../i18n')
    await i18n.changeLanguage('fr')
    server()
    renderRoutes(routes, '/spotv2/mediation/add')
    expect(await screen.findByRole('heading', { name: 'Nouvelle médiation' })).toBeInTheDocument()
    expect(field('Date')).toHaveTextContent('01/12/2026')
    expect(field('Heure')).toHaveTextContent('11:00')
  })

  it('shows server field errors on their fields and keeps what was typed', async () => {
    server({
      [CREATE]: () =>
        errorBody(400, 'Bad Request', 'atLeastOneErrorLeft', [
          { field: 'participants', code: 'invalidValue' },
          { field: 'schedulingDate', code: 'errors.lessThanMin' },
        ]),
    })
    renderRoutes(routes, '/spotv2/mediation/add')
    await userEvent.type(await screen.findByRole('textbox', { name: /^Title/ }), 'Réglage du tour')
    await pick(/^Participants/, 'paul', 'Paul Martin')
    await typeSection(field('Time'), 'Hours', '23')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Invalid value')).toBeInTheDocument()
    // Today's schedule refused: the time is what must change.
    expect(within(field('Time').parentElement as HTMLElement).getByText('Too early: choose a later value')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: /^Title/ })).toHaveValue('Réglage du tour')
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })
})

describe('create and start', () => {
  it('asks for the title only, then opens the started mediation', async () => {
    const fetchMock = server({ [UNPLANNED]: () => json({ id: 9 }) })
    const { router } = renderRoutes(routes, '/spotv2/mediation/add?mode=start')
    expect(await screen.findByRole('heading', { name: 'Create and start a mediation' })).toBeInTheDocument()
    expect(screen.queryByRole('combobox', { name: /^Mediator/ })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Create and start' }))
    expect(await screen.findByText("This field can't stay empty")).toBeInTheDocument()
    await userEvent.type(screen.getByRole('textbox', { name: /^Title/ }), 'Panne de la presse')
    await userEvent.click(screen.getByRole('button', { name: 'Create and start' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/mediation/view/9'))
    expect(await sentRequests(fetchMock, UNPLANNED)[0].json()).toEqual({ title: 'Panne de la presse' })
  })
})

const STORED = new Date(2026, 10, 28, 14, 0).toISOString()
const FIELDS = { title: true, description: true, schedulingDate: true, mediator: true, participants: true, visibleByGroups: true, visibleByPersons: true }
const mediation = (overrides: object = {}) => ({
  id: 5,
  title: 'Réglage du tour',
  description: 'Ligne',
  status: 'started',
  schedulingDate: STORED,
  executionStart: STORED,
  executionStop: null,
  creator: { id: 3, name: 'Émilie Laurent' },
  mediator: { id: 7, name: 'Paul Martin' },
  participants: [{ id: 8, name: 'Pauline Bernard (E42)' }],
  visibleByGroups: [{ id: 4, name: 'Qualité' }],
  visibleByPersons: [],
  lastUpdate: null,
  trackingPeriods: [],
  durationMinutes: 0,
  discussionId: null,
  reporting: null,
  signatures: [],
  version: 4,
  can: { edit: true, fields: { ...FIELDS, schedulingDate: false, mediator: false, participants: false } },
  ...overrides,
})

describe('edit mediation', () => {
  it('shows read-only the fields the user may not change now, and saves the stored date untouched', async () => {
    const fetchMock = server({ 'GET /backend/api/v2/mediation/5': () => json(mediation()), 'POST /backend/api/v2/mediation/5': () => json(mediation()) })
    const { router } = renderRoutes(routes, '/spotv2/mediation/edit/5')
    const title = await screen.findByRole('textbox', { name: /^Title/ })
    expect(document.title).toBe('Editing the mediation - Spot')
    expect(title).not.toHaveAttribute('readonly')
    expect(screen.getByRole('combobox', { name: /^Mediator/ })).toHaveAttribute('readonly')
    expect(screen.getByRole('combobox', { name: /^Participants/ })).toHaveAttribute('readonly')
    expect(screen.getByRole('combobox', { name: /^Groups/ })).not.toHaveAttribute('readonly')
    expect(screen.getAllByText('You may not change this field now.')).toHaveLength(4)
    // The stored schedule is in the past: untouched, it is no error.
    expect(field('Date')).toHaveTextContent('2026-11-28')
    await userEvent.clear(title)
    await userEvent.type(title, 'Réglage fin du tour')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/mediation/view/5'))
    expect(await sentRequests(fetchMock, 'POST /backend/api/v2/mediation/5')[0].json()).toEqual({
      title: 'Réglage fin du tour',
      description: 'Ligne',
      schedulingDate: STORED,
      mediator: 7,
      participants: [8],
      visibleByGroups: [4],
      visibleByPersons: [],
      version: 4,
    })
  })

  it('is all read-only for a user who may change nothing, and shows a refused field on it', async () => {
    const none = Object.fromEntries(Object.keys(FIELDS).map((name) => [name, false]))
    server({
      'GET /backend/api/v2/mediation/5': () => json(mediation({ can: { edit: true, fields: { ...none, title: true } } })),
      'POST /backend/api/v2/mediation/5': () => errorBody(409, 'Conflict', 'fieldNotEditable', [{ field: 'title', code: 'fieldNotEditable' }]),
    })
    renderRoutes(routes, '/spotv2/mediation/edit/5')
    const title = await screen.findByRole('textbox', { name: /^Title/ })
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveAttribute('readonly')
    expect(screen.getAllByText('You may not change this field now.')).toHaveLength(7)
    await userEvent.clear(title)
    await userEvent.type(title, 'Autre titre')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('This field cannot be changed now')).toBeInTheDocument()
    expect(title).toHaveValue('Autre titre')
  })

  it('shows the form read-only to a reader who may change nothing (a participant), with no save', async () => {
    const none = Object.fromEntries(Object.keys(FIELDS).map((name) => [name, false]))
    server({ 'GET /backend/api/v2/mediation/5': () => json(mediation({ can: { edit: false, fields: none } })) })
    const { router } = renderRoutes(routes, '/spotv2/mediation/edit/5')
    expect(await screen.findByRole('heading', { name: 'Mediation (read only)' })).toBeInTheDocument()
    expect(screen.getByText('You may read this mediation but not change it.')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: /^Title/ })).toHaveValue('Réglage du tour')
    expect(screen.getByRole('textbox', { name: /^Title/ })).toHaveAttribute('readonly')
    expect(screen.getByRole('combobox', { name: /^Participants/ })).toHaveAttribute('readonly')
    // Each field, the schedule's date and time each.
    expect(screen.getAllByText('You may not change this field now.')).toHaveLength(8)
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/spotv2/mediation/edit/5')
    await userEvent.click(screen.getByRole('button', { name: 'Back' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/mediation/view/5'))
  })

  it('explains a stale version, reads the mediation again and keeps what was typed', async () => {
    let version = 4
    const fetchMock = server({
      'GET /backend/api/v2/mediation/5': () => json(mediation({ version })),
      'POST /backend/api/v2/mediation/5': () => errorBody(409, 'Conflict', 'staleVersion'),
    })
    renderRoutes(routes, '/spotv2/mediation/edit/5')
    const title = await screen.findByRole('textbox', { name: /^Title/ })
    await userEvent.clear(title)
    await userEvent.type(title, 'Réglage fin')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText(/Someone changed this mediation meanwhile/)).toBeInTheDocument()
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
    version = 5
    await userEvent.click(screen.getByRole('button', { name: 'Read the mediation again' }))
    await waitFor(() => expect(sentRequests(fetchMock, 'GET /backend/api/v2/mediation/5')).toHaveLength(2))
    expect(screen.getByRole('textbox', { name: /^Title/ })).toHaveValue('Réglage fin')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sentRequests(fetchMock, 'POST /backend/api/v2/mediation/5')).toHaveLength(2))
    expect(await sentRequests(fetchMock, 'POST /backend/api/v2/mediation/5')[1].json()).toMatchObject({ title: 'Réglage fin', version: 5 })
  })

  it('shows NotFound for an unknown mediation', async () => {
    server({ 'GET /backend/api/v2/mediation/5': () => errorBody(404, 'Not Found', 'notFound') })
    renderRoutes(routes, '/spotv2/mediation/edit/5')
    expect(await screen.findByText('The page or information sought was not found')).toBeInTheDocument()
  })
})
