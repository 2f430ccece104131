import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ForbiddenPage } from '../../components/ForbiddenPage'
import { RequirePermission } from '../../components/RequirePermission'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { CreateFromSubjectPage, EditSubjectPage, NewSubjectPage } from './SubjectFormPage'

const CREATE = 'POST /backend/api/v2/subject'
const site = { id: 1, code: 'LYON', name: 'Usine de Lyon' }
const activity = (id: number, name: string, parentId: number | null, hasSubActivities = false) => ({
  id,
  code: `A${id}`,
  name,
  cartographyId: 2,
  parentId,
  hasSubActivities,
  subjectsCount: 0,
})

function server(permissions = ['perm_EditPdv'], extra: Record<string, () => Response> = {}) {
  return fakeServer({
    'GET /backend/api/v2/account/whoAmI': () =>
      json({ id: 3, login: 'referent', firstName: 'Émilie', lastName: 'Laurent', externalId: null, displayName: 'Émilie Laurent', groups: [], permissions }),
    'GET /backend/api/v2/cartography': () => json([{ id: 2, code: 'USI', name: "Atelier d'usinage", site, imageWidth: 1600, imageHeight: 1000 }]),
    'GET /backend/api/v2/cartography/2/functions': () =>
      json([
        { id: 12, code: 'OPR', name: 'Opérateur régleur' },
        { id: 14, code: 'CAR', name: 'Cariste' },
      ]),
    'GET /backend/api/v2/cartography/2/activities': () => json([activity(3, 'Réception matière', null), activity(4, 'Usinage', null, true)]),
    'GET /backend/api/v2/activity/4/subActivities': () => json([activity(5, 'Tournage', 4), activity(6, 'Fraisage', 4)]),
    ...extra,
  })
}

const routes = [
  {
    element: <RequirePermission />,
    children: [
      { path: 'subject/add', Component: NewSubjectPage },
      { path: 'subject/edit/:subjectId', Component: EditSubjectPage },
      { path: 'subject/createFrom/:subjectId', Component: CreateFromSubjectPage },
    ],
  },
  { path: 'subject/:subjectId', Component: () => null },
  { path: 'forbidden', Component: ForbiddenPage },
]

describe('new subject', () => {
  it('is prefilled from the query and saves the sub-activity as the activity', async () => {
    const fetchMock = server(['perm_EditPdv'], { [CREATE]: () => json({ id: 99 }) })
    const { router } = renderRoutes(routes, '/spotv2/subject/add?cartography=2&function=12&activity=4&subactivity=6')
    expect(await screen.findByRole('heading', { name: 'New subject' })).toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Sub-activity' })).toHaveValue('Fraisage'))
    expect(screen.getByRole('combobox', { name: /^Cartography/ })).toHaveValue("Usine de Lyon — Atelier d'usinage")
    expect(screen.getByRole('combobox', { name: /^Function/ })).toHaveValue('Opérateur régleur')
    expect(screen.getByRole('combobox', { name: /^Activity/ })).toHaveValue('Usinage')
    await userEvent.type(screen.getByRole('textbox', { name: /^Name/ }), 'Bridage des pièces')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/subject/99'))
    expect(await sentRequests(fetchMock, CREATE)[0].json()).toEqual({
      name: 'Bridage des pièces',
      type: 'risk',
      cartographyId: 2,
      functionId: 12,
      activityId: 6,
    })
  })

  it('refuses to save without a name, a function and an activity', async () => {
    const fetchMock = server()
    renderRoutes(routes, '/spotv2/subject/add?cartography=2')
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Cartography/ })).toHaveValue("Usine de Lyon — Atelier d'usinage"))
    await userEvent.type(screen.getByRole('textbox', { name: /^Name/ }), 'Bridage ')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Text may not begin or end with whitespace')).toBeInTheDocument()
    expect(screen.getAllByText('A value must be chosen')).toHaveLength(2)
    expect(screen.getByText('At least one error remains to be corrected')).toBeInTheDocument()
    expect(sentRequests(fetchMock, CREATE)).toHaveLength(0)
  })

  it('shows a server field error on its field and keeps what was typed', async () => {
    server(['perm_EditPdv'], {
      [CREATE]: () => errorBody(400, 'Bad Request', 'atLeastOneErrorLeft', [{ field: 'functionId', code: 'invalidValue' }]),
    })
    renderRoutes(routes, '/spotv2/subject/add?cartography=2&function=12&activity=3')
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Activity/ })).toHaveValue('Réception matière'))
    await userEvent.type(screen.getByRole('textbox', { name: /^Name/ }), 'Contrôle des lots')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Invalid value')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('Contrôle des lots')
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })

  it('sends a user without perm_EditPdv to Forbidden', async () => {
    server([])
    const { router } = renderRoutes(routes, '/spotv2/subject/add')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
  })
})

const source = {
  id: 5,
  code: 'USI-005',
  name: 'Réglage du tour',
  type: 'quality',
  cartographyId: 2,
  functionId: 12,
  activityId: 5,
  version: 7,
  contexts: [
    [
      { ...site, type: 'site' },
      { id: 2, code: 'USI', name: "Atelier d'usinage", type: 'cartography' },
      { id: 4, code: 'A4', name: 'Usinage', type: 'activity' },
      { id: 5, code: 'A5', name: 'Tournage', type: 'activity' },
    ],
  ],
}

describe('edit and create from', () => {
  it('edits with the cartography locked and the version read', async () => {
    const fetchMock = server(['perm_EditPdv'], {
      'GET /backend/api/v2/subject/5': () => json(source),
      'POST /backend/api/v2/subject/5': () => json(source),
    })
    renderRoutes(routes, '/spotv2/subject/edit/5')
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Sub-activity' })).toHaveValue('Tournage'))
    expect(screen.getByRole('combobox', { name: /^Cartography/ })).toBeDisabled()
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('Réglage du tour')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sentRequests(fetchMock, 'POST /backend/api/v2/subject/5')).toHaveLength(1))
    expect(await sentRequests(fetchMock, 'POST /backend/api/v2/subject/5')[0].json()).toEqual({
      name: 'Réglage du tour',
      type: 'quality',
      cartographyId: 2,
      functionId: 12,
      activityId: 5,
      version: 7,
    })
  })

  it('creates from another subject with an empty name, showing the source name', async () => {
    const fetchMock = server(['perm_EditPdv'], {
      'GET /backend/api/v2/subject/5': () => json(source),
      'POST /backend/api/v2/subject/5/duplicate': () => json({ id: 41 }),
    })
    const { router } = renderRoutes(routes, '/spotv2/subject/createFrom/5')
    expect(await screen.findByText('Copy of “Réglage du tour”: its ratings and mind map are carried over.')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('')
    await userEvent.type(screen.getByRole('textbox', { name: /^Name/ }), 'Réglage de la fraiseuse')
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Sub-activity' })).toHaveValue('Tournage'))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/subject/41'))
    expect(await sentRequests(fetchMock, 'POST /backend/api/v2/subject/5/duplicate')[0].json()).toMatchObject({
      name: 'Réglage de la fraiseuse',
      activityId: 5,
    })
  })

  it('explains a stale version, reads the subject again and keeps what was typed', async () => {
    let version = 7
    const fetchMock = server(['perm_EditPdv'], {
      'GET /backend/api/v2/subject/5': () => json({ ...source, version }),
      'POST /backend/api/v2/subject/5': () => errorBody(409, 'Conflict', 'staleVersion'),
    })
    renderRoutes(routes, '/spotv2/subject/edit/5')
    const name = await screen.findByRole('textbox', { name: /^Name/ })
    await waitFor(() => expect(name).toHaveValue('Réglage du tour'))
    await userEvent.clear(name)
    await userEvent.type(name, 'Réglage fin du tour')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText(/Someone changed this subject meanwhile/)).toBeInTheDocument()
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
    version = 8
    await userEvent.click(screen.getByRole('button', { name: 'Read the subject again' }))
    await waitFor(() => expect(sentRequests(fetchMock, 'GET /backend/api/v2/subject/5')).toHaveLength(2))
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('Réglage fin du tour')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sentRequests(fetchMock, 'POST /backend/api/v2/subject/5')).toHaveLength(2))
    expect(await sentRequests(fetchMock, 'POST /backend/api/v2/subject/5')[1].json()).toMatchObject({ name: 'Réglage fin du tour', version: 8 })
  })
})
