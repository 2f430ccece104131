import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import type { Path } from './api'
import { EditPathPage, NewPathPage } from './PathFormPage'

const API = '/backend/api/v2'
const CREATE = `POST ${API}/training/path`
const UPDATE = `POST ${API}/training/path/5`
const NOW = new Date(2026, 11, 1, 10, 0, 30)

const USERS = [
  { id: 3, displayName: 'Claire Lefèvre' },
  { id: 7, displayName: 'Paul Martin' },
  { id: 8, displayName: 'Léa Petit' },
  { id: 9, displayName: 'Hugo Roux' },
]

function searchAnswer(request: Request) {
  const name = (new URL(request.url).searchParams.get('name') ?? '').toLowerCase()
  return json(USERS.filter((user) => user.displayName.toLowerCase().includes(name)).map((user) => ({ ...user, login: `u${user.id}`, firstName: '', lastName: '', externalId: null })))
}

const MODULE = { id: 21, name: 'Consignation', moduleType: 'training', enabled: true, reference: null }

function server(extra: Record<string, (request: Request) => Response | Promise<Response>> = {}) {
  return fakeServer({
    [`GET ${API}/account/whoAmI`]: () =>
      json({ id: 3, login: 'claire', firstName: 'Claire', lastName: 'Lefèvre', externalId: null, displayName: 'Claire Lefèvre', groups: [], permissions: ['perm_TrainingManagement'] }),
    [`GET ${API}/user/search`]: searchAnswer,
    [`GET ${API}/user/searchGroup`]: () => json([{ id: 4, name: 'Atelier' }]),
    [`GET ${API}/training/module/search`]: () => json([MODULE]),
    ...extra,
  })
}

const routes = [
  { path: 'training/path/add/:pathId?', Component: NewPathPage },
  { path: 'training/path/edit/:pathId', Component: EditPathPage },
  { path: 'training/path/view/:pathId', Component: () => null },
  { path: 'training/paths/:filter?', Component: () => null },
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

async function pick(combobox: HTMLElement, text: string, option: string) {
  await userEvent.type(combobox, text)
  await userEvent.click(await screen.findByRole('option', { name: option }))
}

const row = (position: number) => screen.getByRole('listitem', { name: `Module ${position}` })

/** can.fields: every field may change (a path not yet accepted, for its creator). */
const EVERY_FIELD = {
  title: true,
  reference: true,
  startDate: true,
  stopDate: true,
  passThreshold: true,
  assignedModules: true,
  referents: true,
  visibleByPersons: true,
  visibleByGroups: true,
}
/** can.fields once accepted: only the referents and the visibility. */
const ACCEPTED_FIELDS = { ...EVERY_FIELD, title: false, reference: false, startDate: false, stopDate: false, passThreshold: false, assignedModules: false }
const editable = (fields: typeof EVERY_FIELD) => ({ edit: true, createFrom: true, fields }) as Path['can']

const path = (changes: Partial<Path> = {}): Path =>
  ({
    id: 5,
    title: 'Sécurité atelier',
    reference: null,
    learner: { id: 7, name: 'Paul Martin' },
    startDate: '2026-11-20',
    stopDate: '2027-01-31',
    status: 'notAccepted',
    passThreshold: 8,
    visibleByPersons: [],
    visibleByGroups: [{ id: 4, name: 'Atelier' }],
    creation: { userId: 3, userName: 'Claire Lefèvre', date: '2026-11-20T09:00:00Z' },
    assignedModules: [
      { index: 0, module: { id: 21, name: 'Consignation' }, referents: [{ id: 8, name: 'Léa Petit' }], startDate: '2026-11-20', stopDate: '2026-12-31' },
      { index: 1, module: { id: 22, name: 'Levage' }, referents: [{ id: 9, name: 'Hugo Roux' }], startDate: '2026-12-01', stopDate: '2027-01-31' },
    ],
    version: 3,
    can: editable(EVERY_FIELD),
    ...changes,
  }) as unknown as Path

describe('new training path', () => {
  it('starts from today for a month at 10 / 10, and asks for a learner, a title and a module before saving', async () => {
    const fetchMock = server()
    renderRoutes(routes, '/spotv2/training/path/add')
    expect(await screen.findByRole('heading', { name: 'New training path' })).toBeInTheDocument()
    expect(document.title).toBe('New training path - Spot')
    expect(field('Start date')).toHaveTextContent('2026-12-01')
    expect(field('Stop date')).toHaveTextContent('2027-01-01')
    expect(screen.getByText('Pass threshold: 10 / 10')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Choose at least one learner or group')).toBeInTheDocument()
    expect(within(screen.getByRole('region', { name: 'Modules of the path' })).getByRole('alert')).toHaveTextContent("This field can't stay empty")
    expect(screen.getByText('At least one error remains to be corrected')).toBeInTheDocument()
    expect(sentRequests(fetchMock, CREATE)).toHaveLength(0)
  })

  it('creates one path per learner and per member of the groups chosen, which the server expands', async () => {
    const fetchMock = server({ [CREATE]: () => json([{ id: 11 }, { id: 12 }, { id: 13 }]) })
    const { router } = renderRoutes(routes, '/spotv2/training/path/add')
    await pick(await screen.findByRole('combobox', { name: 'Learners' }), 'paul', 'Paul Martin')
    await pick(screen.getByRole('combobox', { name: 'Groups of learners' }), 'ate', 'Atelier')
    await userEvent.type(screen.getByRole('textbox', { name: /^Title/ }), 'Sécurité atelier')
    await userEvent.click(screen.getByRole('button', { name: 'Add a module' }))
    await pick(within(row(1)).getByRole('combobox', { name: /^Training module/ }), 'cons', 'Consignation')
    expect(sentRequests(fetchMock, `GET ${API}/training/module/search`).map((request) => new URL(request.url).searchParams.get('enabled'))).toContain('true')
    await pick(within(row(1)).getByRole('combobox', { name: /^Referents/ }), 'hugo', 'Hugo Roux')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/training/paths'))
    expect(await sentRequests(fetchMock, CREATE)[0].json()).toEqual({
      learnerIds: [7],
      learnerGroupIds: [4],
      title: 'Sécurité atelier',
      reference: null,
      startDate: '2026-12-01',
      stopDate: '2027-01-01',
      passThreshold: 10,
      visibleByPersons: [],
      visibleByGroups: [],
      assignedModules: [{ moduleId: 21, referents: [9], startDate: '2026-12-01', stopDate: '2027-01-01' }],
    })
  })

  it('says why a group whose only member is the creator gives no learner', async () => {
    const fetchMock = server({ [CREATE]: () => errorBody(400, 'Bad Request', 'atLeastOneErrorLeft', [{ field: 'learnerGroupIds', code: 'creatorOnlyMemberOfGroups' }]) })
    renderRoutes(routes, '/spotv2/training/path/add')
    await pick(await screen.findByRole('combobox', { name: 'Groups of learners' }), 'ate', 'Atelier')
    await userEvent.type(screen.getByRole('textbox', { name: /^Title/ }), 'Sécurité atelier')
    await userEvent.click(screen.getByRole('button', { name: 'Add a module' }))
    await pick(within(row(1)).getByRole('combobox', { name: /^Training module/ }), 'cons', 'Consignation')
    await pick(within(row(1)).getByRole('combobox', { name: /^Referents/ }), 'hugo', 'Hugo Roux')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('The groups chosen have no member but you, and the creator of a path cannot be its learner')).toBeInTheDocument()
    expect(screen.queryByText('Choose at least one learner or group')).not.toBeInTheDocument()
    expect(sentRequests(fetchMock, CREATE)).toHaveLength(1)
  })

  it('refuses the creator as a learner, and a learner as a referent', async () => {
    const fetchMock = server()
    renderRoutes(routes, '/spotv2/training/path/add')
    await pick(await screen.findByRole('combobox', { name: 'Learners' }), 'claire', 'Claire Lefèvre')
    await pick(screen.getByRole('combobox', { name: 'Learners' }), 'paul', 'Paul Martin')
    await userEvent.click(screen.getByRole('button', { name: 'Add a module' }))
    await pick(within(row(1)).getByRole('combobox', { name: /^Referents/ }), 'paul', 'Paul Martin')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('The creator cannot be a learner')).toBeInTheDocument()
    expect(within(row(1)).getByText('A learner cannot be a referent')).toBeInTheDocument()
    expect(sentRequests(fetchMock, CREATE)).toHaveLength(0)
  })

  it('starts from another path without its learner, adds no module while its dates are invalid, and cancels back to it', async () => {
    server({ [`GET ${API}/training/path/5`]: () => json(path({ stopDate: '2026-11-25' })) })
    const { router } = renderRoutes(routes, '/spotv2/training/path/add/5')
    expect(await screen.findByText(/starts from a copy of “Sécurité atelier”/)).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: /^Title/ })).toHaveValue('Sécurité atelier')
    expect(screen.getByText('Pass threshold: 8 / 10')).toBeInTheDocument()
    expect(screen.getAllByRole('listitem', { name: /^Module \d/ })).toHaveLength(2)
    expect(within(row(2)).getByRole('combobox', { name: /^Training module/ })).toHaveValue('Levage')
    await userEvent.click(screen.getByRole('button', { name: 'Add a module' }))
    expect(await screen.findByText('The training path dates must be valid')).toBeInTheDocument()
    expect(screen.getAllByRole('listitem', { name: /^Module \d/ })).toHaveLength(2)
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(router.state.location.pathname).toBe('/spotv2/training/path/view/5')
  })

  it('moves and removes modules', async () => {
    const fetchMock = server({ [`GET ${API}/training/path/5`]: () => json(path()), [CREATE]: () => json([{ id: 14 }]) })
    const { router } = renderRoutes(routes, '/spotv2/training/path/add/5')
    await pick(await screen.findByRole('combobox', { name: 'Learners' }), 'paul', 'Paul Martin')
    await userEvent.click(screen.getByRole('button', { name: 'Move module 2 up' }))
    expect(within(row(1)).getByRole('combobox', { name: /^Training module/ })).toHaveValue('Levage')
    await userEvent.click(screen.getByRole('button', { name: 'Remove module 2' }))
    expect(screen.getAllByRole('listitem', { name: /^Module \d/ })).toHaveLength(1)
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/training/path/view/14'))
    expect(await sentRequests(fetchMock, CREATE)[0].json()).toMatchObject({
      learnerIds: [7],
      visibleByGroups: [4],
      assignedModules: [{ moduleId: 22, referents: [9], startDate: '2026-12-01', stopDate: '2027-01-31' }],
    })
  })

  it('shows server errors on their fields and keeps what was typed', async () => {
    server({
      [`GET ${API}/training/path/5`]: () => json(path()),
      [CREATE]: () =>
        errorBody(400, 'Bad Request', 'atLeastOneErrorLeft', [
          { field: 'title', code: 'beginEndWhitespaceError' },
          { field: 'assignedModules[1].moduleId', code: 'trainingModuleDisabled' },
        ]),
    })
    renderRoutes(routes, '/spotv2/training/path/add/5')
    await pick(await screen.findByRole('combobox', { name: 'Learners' }), 'paul', 'Paul Martin')
    const title = screen.getByRole('textbox', { name: /^Title/ })
    await userEvent.clear(title)
    await userEvent.type(title, 'Sécurité 2027')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await within(row(2)).findByText('This training module is disabled')).toBeInTheDocument()
    expect(screen.getByText('Text may not begin or end with whitespace')).toBeInTheDocument()
    expect(title).toHaveValue('Sécurité 2027')
    expect(screen.getByRole('combobox', { name: 'Learners' }).closest('.MuiAutocomplete-root')).toHaveTextContent('Paul Martin')
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })
})

describe('edit training path', () => {
  it('keeps title, dates, threshold and modules once accepted, but referents and visibility change', async () => {
    const fetchMock = server({ [`GET ${API}/training/path/5`]: () => json(path({ status: 'started', can: editable(ACCEPTED_FIELDS) })), [UPDATE]: () => json(path({ status: 'started' })) })
    const { router } = renderRoutes(routes, '/spotv2/training/path/edit/5')
    const title = await screen.findByRole('textbox', { name: /^Title/ })
    expect(document.title).toBe('Edit training path - Spot')
    expect(screen.getByText('Paul Martin')).toBeInTheDocument()
    expect(screen.getByText(/only the referents and the visibility may still change/)).toBeInTheDocument()
    expect(title).toHaveAttribute('readonly')
    expect(screen.getByRole('slider')).toBeDisabled()
    expect(screen.queryByRole('button', { name: 'Add a module' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Remove module 1' })).toBeNull()
    expect(within(row(1)).getByRole('combobox', { name: /^Training module/ })).toHaveAttribute('readonly')
    const referents = within(row(1)).getByRole('combobox', { name: /^Referents/ })
    expect(referents).not.toHaveAttribute('readonly')
    await pick(referents, 'hugo', 'Hugo Roux')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/training/path/view/5'))
    expect(await sentRequests(fetchMock, UPDATE)[0].json()).toEqual({
      title: 'Sécurité atelier',
      reference: null,
      startDate: '2026-11-20',
      stopDate: '2027-01-31',
      passThreshold: 8,
      visibleByPersons: [],
      visibleByGroups: [4],
      assignedModules: [
        { moduleId: 21, referents: [8, 9], startDate: '2026-11-20', stopDate: '2026-12-31' },
        { moduleId: 22, referents: [9], startDate: '2026-12-01', stopDate: '2027-01-31' },
      ],
      version: 3,
    })
  })

  it('shows read-only the fields the server says may no longer change, and only those', async () => {
    const fields = { ...EVERY_FIELD, title: false, passThreshold: false }
    server({ [`GET ${API}/training/path/5`]: () => json(path({ can: editable(fields) })) })
    renderRoutes(routes, '/spotv2/training/path/edit/5')
    expect(await screen.findByRole('textbox', { name: /^Title/ })).toHaveAttribute('readonly')
    expect(screen.getByRole('slider')).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Add a module' })).toBeInTheDocument()
    expect(within(row(1)).getByRole('combobox', { name: /^Training module/ })).not.toHaveAttribute('readonly')
    expect(screen.getByRole('combobox', { name: 'Visible by persons' })).not.toHaveAttribute('readonly')
  })

  it('sends to Forbidden one who is neither its creator nor a path administrator', async () => {
    server({ [`GET ${API}/training/path/5`]: () => json(path({ can: { edit: false, createFrom: false } as Path['can'] })) })
    const { router } = renderRoutes(routes, '/spotv2/training/path/edit/5')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
  })

  it('shows NotFound for an unknown path', async () => {
    server({ [`GET ${API}/training/path/5`]: () => errorBody(404, 'Not Found', 'trainingPathNotFound') })
    renderRoutes(routes, '/spotv2/training/path/edit/5')
    expect(await screen.findByText('The page or information sought was not found')).toBeInTheDocument()
  })

  it('explains a stale version and keeps what was typed', async () => {
    server({ [`GET ${API}/training/path/5`]: () => json(path()), [UPDATE]: () => errorBody(409, 'Conflict', 'staleVersion') })
    renderRoutes(routes, '/spotv2/training/path/edit/5')
    const title = await screen.findByRole('textbox', { name: /^Title/ })
    await userEvent.clear(title)
    await userEvent.type(title, 'Sécurité 2027')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Someone else changed the path meanwhile.')).toBeInTheDocument()
    expect(title).toHaveValue('Sécurité 2027')
  })
})
