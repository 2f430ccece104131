import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { routes } from '../../app/router'
import i18n from '../../i18n'
import { storeToken } from '../../lib/session'
import { renderRoutes } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'

const API = '/backend/api/v2'
const GROUPS = `GET ${API}/dashboards/trainingPath`
const CARTOGRAPHIES = `GET ${API}/dashboards/manager/cartographies`

type Handlers = Parameters<typeof fakeServer>[0]

/** The shell around the page, signed in with these permissions, and the hub's answers. */
function signedInAs(permissions: string[], handlers: Handlers = {}) {
  storeToken('token')
  return fakeServer({
    [`GET ${API}/account/whoAmI`]: () =>
      json({ id: 7, login: 'bdubois', firstName: 'Bernard', lastName: 'Dubois', externalId: null, displayName: 'Bernard Dubois', groups: [], permissions }),
    [`GET ${API}/organization/info`]: () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null }),
    [`GET ${API}/account/alerts`]: () => json({ alerts: [], count: 0 }),
    [`GET ${API}/discussion/unread`]: () => json([]),
    [`GET ${API}/dashboards/mine`]: () => json({ currentPaths: [], alerts: [], contributions: [], periodicModules: [] }),
    [GROUPS]: () =>
      json({
        groups: [
          { id: 3, name: 'Opérateurs', users: 10, withPaths: 6, completion: 70, completionColour: 'success', high: 3, medium: 2, low: 1 },
          { id: 4, name: 'Maintenance', users: 1, withPaths: 0, completion: -1, completionColour: null, high: 0, medium: 0, low: 0 },
        ],
      }),
    [CARTOGRAPHIES]: () =>
      json([
        { id: 2, name: 'Atelier d’usinage', siteName: 'Lyon', qualifications: 3, functions: { none: 1, single: 1, covered: 2, underMinimum: 2 } },
        { id: 5, name: 'Ligne d’assemblage', siteName: 'Lyon', qualifications: 0, functions: { none: 0, single: 0, covered: 0, underMinimum: 0 } },
      ]),
    [`GET ${API}/user/search`]: () => json([{ id: 12, displayName: 'Inès Garnier' }]),
    ...handlers,
  })
}

const PAGE = '/spotv2/dashboards/manager'

describe('the Dashboard manager', () => {
  it('is in the drawer for holders of perm_TableauBord, among the dashboards', async () => {
    signedInAs(['perm_TableauBord'])
    renderRoutes(routes, '/spotv2/dashboards/mine')
    await userEvent.click(await screen.findByRole('button', { name: 'Show or hide the navigation' }))
    expect(await screen.findByRole('link', { name: 'Dashboard manager' })).toHaveAttribute('href', PAGE)
  })

  it('is neither in the drawer nor open without perm_TableauBord', async () => {
    const fetchMock = signedInAs(['perm_VisuTrack'])
    const { router } = renderRoutes(routes, '/spotv2/dashboards/mine')
    await userEvent.click(await screen.findByRole('button', { name: 'Show or hide the navigation' }))
    expect(await screen.findByRole('link', { name: 'Contributions' })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Dashboard manager' })).not.toBeInTheDocument()
    await router.navigate('/dashboards/manager')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
    expect(sentRequests(fetchMock, GROUPS)).toHaveLength(0)
    expect(sentRequests(fetchMock, CARTOGRAPHIES)).toHaveLength(0)
  })

  it('lists the groups with their progress, each leading to its path progress and its qualifications', async () => {
    signedInAs(['perm_TableauBord'])
    renderRoutes(routes, PAGE)
    expect(await screen.findByRole('heading', { name: 'Dashboard manager', level: 1 })).toBeInTheDocument()
    await waitFor(() => expect(document.title).toBe('Dashboard manager - Spot - ACME'))
    const [operators, maintenance] = within(await screen.findByRole('list', { name: 'Groups' })).getAllByRole('listitem')
    expect(within(operators).getByRole('heading', { name: 'Opérateurs', level: 3 })).toBeInTheDocument()
    expect(within(operators).getByText('10 members, 6 with a current path')).toBeInTheDocument()
    expect(within(operators).getByText('70 %')).toHaveAttribute('data-completion', 'success')
    expect(within(operators).getByRole('link', { name: 'Paths progress: Opérateurs' })).toHaveAttribute('href', '/spotv2/dashboards/trainingPath/group/3')
    expect(within(operators).getByRole('link', { name: 'Qualifications of the group Opérateurs' })).toHaveAttribute(
      'href',
      '/spotv2/dashboard/qualifications/group/3',
    )
    expect(within(maintenance).getByText('1 member, 0 with a current path')).toBeInTheDocument()
    expect(within(maintenance).getByText('Not quantifiable')).toBeInTheDocument()
    expect(within(maintenance).getByRole('link', { name: 'Qualifications of the group Maintenance' })).toHaveAttribute(
      'href',
      '/spotv2/dashboard/qualifications/group/4',
    )
  })

  it('lists the cartographies with their qualifications and the coverage of their functions, each leading to its dashboard', async () => {
    signedInAs(['perm_TableauBord'])
    renderRoutes(routes, PAGE)
    const list = await screen.findByRole('list', { name: 'Cartographies' })
    const [machining, assembly] = within(list).getAllByRole('listitem').filter((item) => item.parentElement === list)
    expect(within(machining).getByRole('link', { name: 'Atelier d’usinage' })).toHaveAttribute('href', '/spotv2/dashboards/qualifications/cartography/2')
    expect(within(machining).getByText('Lyon')).toBeInTheDocument()
    expect(within(machining).getByText('3 qualifications')).toBeInTheDocument()
    const levels = within(machining).getByRole('list', { name: 'Coverage of the functions of Atelier d’usinage' })
    expect(within(levels).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '1 function with nobody qualified',
      '1 function with a single person',
      '2 functions covered',
      '2 functions under their minimum',
    ])
    expect(within(assembly).getByRole('link', { name: 'Ligne d’assemblage' })).toHaveAttribute('href', '/spotv2/dashboards/qualifications/cartography/5')
    expect(within(assembly).getByText('No qualification names it')).toBeInTheDocument()
    expect(within(assembly).getByText('No function')).toBeInTheDocument()
  })

  it('opens the qualification status of the person chosen', async () => {
    signedInAs(['perm_TableauBord'], {
      [`GET ${API}/dashboards/qualifications/user/12`]: () => json({ user: { id: 12, name: 'Inès Garnier' }, elements: [], history: [] }),
    })
    const { router } = renderRoutes(routes, PAGE)
    await userEvent.type(await screen.findByRole('combobox', { name: 'Person' }), 'Inès')
    await userEvent.click(await screen.findByRole('option', { name: 'Inès Garnier' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/dashboard/qualifications/user/12'))
    expect(await screen.findByRole('heading', { name: 'Qualification status of Inès Garnier', level: 1 })).toBeInTheDocument()
  })

  it('says so when the user sees no cartography and there is no group', async () => {
    signedInAs(['perm_TableauBord'], { [GROUPS]: () => json({ groups: [] }), [CARTOGRAPHIES]: () => json([]) })
    renderRoutes(routes, PAGE)
    expect(await screen.findByText('No cartography is visible to you.')).toBeInTheDocument()
    expect(screen.getByText('No group.')).toBeInTheDocument()
  })

  it('reads in French', async () => {
    signedInAs(['perm_TableauBord'])
    await i18n.changeLanguage('fr')
    renderRoutes(routes, PAGE)
    expect(await screen.findByRole('heading', { name: 'Tableau de bord manager', level: 1 })).toBeInTheDocument()
    expect(await screen.findByText('Aucune qualification ne la nomme')).toBeInTheDocument()
    expect(screen.getByText('1 fonction sans personne de qualifié')).toBeInTheDocument()
    expect(screen.getByText('2 fonctions couvertes')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Qualifications du groupe Opérateurs' })).toBeInTheDocument()
  })
})
