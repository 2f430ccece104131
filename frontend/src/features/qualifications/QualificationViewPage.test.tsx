import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import type { Qualification } from './api'
import { QualificationViewPage } from './QualificationViewPage'
import { BY_MODULE, BY_USER, NOTHING, qualification } from './testData'

const API = '/backend/api/v2/qualifications/9'
const DASHBOARD = `GET ${API}/dashboard`

const routes = [
  { path: 'qualification/view/:qualificationId', Component: QualificationViewPage },
  { path: 'qualifications', Component: () => null },
]

function serve(current: () => Qualification, permissions: string[] = [], handlers: Parameters<typeof fakeServer>[0] = {}) {
  return fakeServer({
    [`GET ${API}`]: () => json(current()),
    'GET /backend/api/v2/account/whoAmI': () => json({ id: 3, login: 'chloe', displayName: 'Chloé Roux', permissions }),
    'GET /backend/api/v2/resource/qualification/9': () => json({ resources: [], can: { edit: false } }),
    [DASHBOARD]: (request) => json(new URL(request.url).searchParams.get('by') === 'module' ? BY_MODULE : BY_USER),
    ...handlers,
  })
}

const open = (id = 9) => renderRoutes(routes, `/spotv2/qualification/view/${id}`)
const actions = () => within(screen.getByRole('group', { name: 'Actions' }))

afterEach(() => vi.unstubAllGlobals())

describe('qualification view', () => {
  it('shows the name as title, its cartographies, groups and modules, and no button a reader may not use', async () => {
    const fetchMock = serve(() => qualification())
    open()
    expect(await screen.findByRole('heading', { level: 1, name: 'Habilitation électrique' })).toBeInTheDocument()
    await waitFor(() => expect(document.title).toContain('Habilitation électrique'))
    const cartographies = within(screen.getByRole('region', { name: 'Cartographies' }))
    expect(cartographies.getByRole('link', { name: 'Atelier mécanique' })).toHaveAttribute('href', '/spotv2/cartography/2')
    expect(cartographies.queryByRole('link', { name: 'Cartography dashboard' })).toBeNull()
    expect(within(screen.getByRole('region', { name: 'Groups' })).getByText('Opérateurs')).toBeInTheDocument()
    const modules = within(screen.getByRole('region', { name: 'Modules' }))
    // Without perm_TrainingManagement, the module pages are closed: names only.
    expect(modules.getByText('Consignation')).toBeInTheDocument()
    expect(modules.queryByRole('link', { name: 'Consignation' })).toBeNull()
    expect(modules.getByText('renewed every 12 months')).toBeInTheDocument()
    expect(modules.getByText('Disabled')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Discussion' })).toBeInTheDocument()
    expect(actions().getByRole('link', { name: 'Return to list' })).toHaveAttribute('href', '/spotv2/qualifications')
    expect(actions().queryByRole('link', { name: 'Edit' })).toBeNull()
    expect(actions().queryByRole('button', { name: 'Delete' })).toBeNull()
    expect(screen.queryByRole('region', { name: 'Dashboard' })).toBeNull()
    expect(sentRequests(fetchMock, DASHBOARD)).toHaveLength(0)
  })

  it('shows the functions it opens and when Spot opens a requalification path, with whom', async () => {
    serve(() => qualification())
    open()
    const functions = within(await screen.findByRole('region', { name: 'Functions it qualifies for' }))
    expect(functions.getByText('Régleur')).toBeInTheDocument()
    expect(functions.getByText('Atelier mécanique')).toBeInTheDocument()
    const requalification = within(screen.getByRole('region', { name: 'Requalification' }))
    expect(requalification.getByText('Spot opens a requalification path 60 days before a periodic module expires.')).toBeInTheDocument()
    expect(requalification.getByText('Default referents: Rémi Référent')).toBeInTheDocument()
  })

  it('says when it names no function, opens no requalification and has no default referent', async () => {
    serve(() => qualification({ functions: [], requalificationWindowDays: 0, defaultReferents: [] }))
    open()
    expect(await screen.findByText("None named: the functions its modules' elements are on.")).toBeInTheDocument()
    expect(screen.getByText('Spot opens no requalification path.')).toBeInTheDocument()
    expect(screen.getByText('No default referent.')).toBeInTheDocument()
  })

  it('offers Edit and Delete as can allows', async () => {
    serve(() => qualification({ can: { ...NOTHING, edit: true } }))
    open()
    await screen.findByRole('heading', { level: 1 })
    expect(await actions().findByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/spotv2/qualification/edit/9')
    expect(actions().queryByRole('button', { name: 'Delete' })).toBeNull()
  })

  it('says when there is no module', async () => {
    serve(() => qualification({ modules: [], cartographies: [] }))
    open()
    expect(await screen.findByText('No module.')).toBeInTheDocument()
    expect(screen.getByText('No cartography.')).toBeInTheDocument()
  })

  it('links modules to their page for training managers', async () => {
    serve(() => qualification(), ['perm_TrainingManagement'])
    open()
    const modules = within(await screen.findByRole('region', { name: 'Modules' }))
    expect(await modules.findByRole('link', { name: 'Consignation' })).toHaveAttribute('href', '/spotv2/training/module/view/31')
  })

  it('deletes after confirmation, and not when the user keeps it', async () => {
    let deleted = 0
    serve(() => qualification({ can: { ...NOTHING, edit: true, delete: true } }), [], {
      [`DELETE ${API}`]: () => {
        deleted += 1
        return new Response(null, { status: 204 })
      },
    })
    const { router } = open()
    await screen.findByRole('heading', { level: 1 })
    await userEvent.click(actions().getByRole('button', { name: 'Delete' }))
    const dialog = within(screen.getByRole('dialog', { name: 'Delete the qualification?' }))
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(deleted).toBe(0)
    await userEvent.click(actions().getByRole('button', { name: 'Delete' }))
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/qualifications'))
    expect(deleted).toBe(1)
  })

  it('shows the dashboard by person, then by module, to those who may see it', async () => {
    const fetchMock = serve(() => qualification({ can: { ...NOTHING, seeDashboard: true } }), ['perm_TableauBord'])
    open()
    const dashboard = within(await screen.findByRole('region', { name: 'Dashboard' }))
    const person = await dashboard.findByRole('region', { name: 'Gabriel Roux' })
    expect(within(person).getByRole('link', { name: 'Gabriel Roux' })).toHaveAttribute('href', '/spotv2/dashboard/qualifications/user/5')
    expect(within(person).getByText('1 / 2 obtained')).toBeInTheDocument()
    expect(within(person).getAllByText('Never validated')).toHaveLength(2)
    expect(dashboard.getByRole('group', { name: 'Legend: states shown' })).toBeInTheDocument()
    const groups = within(screen.getByRole('region', { name: 'Groups' }))
    expect(groups.getByRole('link', { name: 'Opérateurs' })).toHaveAttribute('href', '/spotv2/dashboard/qualifications/group/7')
    expect(screen.getByRole('link', { name: 'Cartography dashboard' })).toHaveAttribute('href', '/spotv2/dashboards/qualifications/cartography/2')

    await userEvent.click(dashboard.getByRole('button', { name: 'By module' }))
    expect(await dashboard.findByRole('region', { name: 'Consignation' })).toBeInTheDocument()
    expect(sentRequests(fetchMock, DASHBOARD).map((request) => new URL(request.url).searchParams.get('by'))).toEqual(['user', 'module'])
  })

  it('shows NotFound for an unknown qualification', async () => {
    serve(() => qualification(), [], { [`GET /backend/api/v2/qualifications/404`]: () => errorBody(404, 'Not Found', 'Not Found') })
    open(404)
    expect(await screen.findByRole('heading', { level: 1, name: /not found/i })).toBeInTheDocument()
  })
})
