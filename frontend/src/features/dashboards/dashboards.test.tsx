import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { routes } from '../../app/router'
import { storeToken } from '../../lib/session'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { sessionCan } from '../../test/session'

const API = '/backend/api/v2'
const ME = 7

type Handlers = Parameters<typeof fakeServer>[0]

/** The shell around the pages, signed in as user 7 with these permissions and `can`, and the dashboards' answers. */
function signedInAs(permissions: string[], handlers: Handlers = {}, can = sessionCan()) {
  storeToken('token')
  return fakeServer({
    [`GET ${API}/account/whoAmI`]: () =>
      json({ id: ME, login: 'groux', firstName: 'Gabriel', lastName: 'Roux', externalId: null, displayName: 'Gabriel Roux', groups: [], permissions, can }),
    [`GET ${API}/organization/info`]: () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null }),
    [`GET ${API}/account/alerts`]: () => json({ alerts: [], count: 0 }),
    [`GET ${API}/discussion/unread`]: () => json([]),
    ...handlers,
  })
}

const MY_DASHBOARD = {
  currentPaths: [{ id: 31, title: 'Consignation', status: 'started', startDate: '2026-01-05', stopDate: '2026-12-31', completion: 40, completionColour: 'accent' }],
  alerts: [
    {
      kind: 'qualificationExpiring',
      count: 1,
      alerts: [{ kind: 'qualificationExpiring', target: { type: 'userQualifications', id: ME }, args: { name: 'Cariste', days: 12 }, date: '2026-11-20T00:00:00Z' }],
    },
    { kind: 'trainingPathToAccept', count: 0, alerts: [] },
  ],
  contributions: [
    { start: '2026-10-01', views: 12, contributions: 3 },
    { start: '2026-11-01', views: 5, contributions: 1 },
  ],
  periodicModules: [
    { pathId: 31, pathTitle: 'Consignation', moduleIndex: 0, moduleId: 4, moduleName: 'Habilitation électrique', validUntil: '2026-12-01', days: 7, color: 'red' },
  ],
}

const element = (name: string, childName: string, remainingDays: number, state: 'good' | 'warn' | 'none') => ({
  item: {
    id: 9,
    name,
    total: 1,
    obtained: remainingDays >= 0 ? 1 : 0,
    counts: { good: 0, warn: 0, none: 0, [state]: 1 },
    remainingDays,
    state,
    validUntil: null,
    link: { type: 'qualification', id: 9 },
  },
  children: [
    { id: 4, name: childName, remainingDays, state, validUntil: null, validationTrainingPath: null, requalificationTrainingPath: null, link: { type: 'module', id: 4 } },
  ],
})

describe('My dashboard', () => {
  it('is where the root leads, with current paths, awaited actions as links, contributions and periodic modules', async () => {
    signedInAs([], { [`GET ${API}/dashboards/mine`]: () => json(MY_DASHBOARD) })
    const { router } = renderRoutes(routes, '/spotv2/')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/dashboards/mine'))
    expect(await screen.findByRole('heading', { name: 'My dashboard', level: 1 })).toBeInTheDocument()
    const paths = await screen.findByRole('region', { name: 'My current paths' })
    expect(within(paths).getByRole('link', { name: 'Consignation' })).toHaveAttribute('href', '/spotv2/training/path/view/31')
    expect(within(paths).getByText('40 %')).toHaveAttribute('data-completion', 'accent')
    const actions = screen.getByRole('region', { name: 'Awaited actions' })
    expect(within(actions).getByRole('heading', { name: 'My qualifications expiring (1)' })).toBeInTheDocument()
    expect(within(actions).getByRole('link', { name: 'Your qualification “Cariste” expires in 12 days' })).toHaveAttribute(
      'href',
      `/spotv2/dashboard/qualifications/user/${ME}`,
    )
    // A kind with nothing awaited is not shown.
    expect(within(actions).queryByRole('heading', { name: /Paths to accept/ })).not.toBeInTheDocument()
    const contributions = screen.getByRole('region', { name: 'My contributions' })
    expect(within(contributions).getByRole('row', { name: 'October 2026 12 3' })).toBeInTheDocument()
    const periodic = screen.getByRole('region', { name: 'Validity of periodic modules' })
    expect(within(periodic).getByText('Valid until 2026-12-01 (7 days)')).toBeInTheDocument()
    expect(within(periodic).getByRole('listitem')).toHaveAttribute('data-colour', 'red')
  })
})

describe('My dashboard validities', () => {
  it('dates an expiring qualification by its last valid day and counts its days as its periodic module does', async () => {
    const dashboard = {
      ...MY_DASHBOARD,
      alerts: [
        {
          kind: 'qualificationExpiring',
          count: 1,
          alerts: [
            {
              kind: 'qualificationExpiring',
              target: { type: 'userQualifications', id: ME },
              args: { name: 'Cariste', days: 8, validUntil: '2026-12-05' },
              date: '2026-11-05T00:00:00Z',
            },
          ],
        },
      ],
      periodicModules: [
        { pathId: 31, pathTitle: 'Consignation', moduleIndex: 0, moduleId: 4, moduleName: 'Conduite', validUntil: '2026-12-05', days: 8, color: 'red' },
        { pathId: 31, pathTitle: 'Consignation', moduleIndex: 1, moduleId: 5, moduleName: 'Sécurité', validUntil: '2026-11-24', days: -3, color: 'grey' },
        { pathId: 31, pathTitle: 'Consignation', moduleIndex: 2, moduleId: 6, moduleName: 'Gestes', validUntil: '2026-11-27', days: 0, color: 'grey' },
      ],
    }
    signedInAs([], { [`GET ${API}/dashboards/mine`]: () => json(dashboard) })
    renderRoutes(routes, '/spotv2/dashboards/mine')
    const actions = await screen.findByRole('region', { name: 'Awaited actions' })
    const alert = within(actions).getByRole('listitem')
    expect(alert).toHaveTextContent('Your qualification “Cariste” expires in 8 days valid until 2026-12-05')
    // The day the alert came up is no expiry date: it is not written beside the sentence.
    expect(alert).not.toHaveTextContent('2026-11-05')
    const [valid, expired, expiredToday] = within(screen.getByRole('region', { name: 'Validity of periodic modules' })).getAllByRole('listitem')
    expect(valid).toHaveTextContent('Valid until 2026-12-05 (8 days)')
    expect(expired).toHaveTextContent('Expired 3 days ago (valid until 2026-11-24)')
    expect(expiredToday).toHaveTextContent('Expired today (valid until 2026-11-27)')
  })
})

describe('path progress', () => {
  it('sends a user without perm_TableauBord to Forbidden, without asking', async () => {
    const fetchMock = signedInAs(['perm_VisuTrack'])
    const { router } = renderRoutes(routes, '/spotv2/dashboards/trainingPath')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
    expect(sentRequests(fetchMock, `GET ${API}/dashboards/trainingPath`)).toHaveLength(0)
  })

  it('lists the groups with their progress, each leading to its members', async () => {
    signedInAs(['perm_TableauBord'], {
      [`GET ${API}/dashboards/trainingPath`]: () =>
        json({ groups: [{ id: 3, name: 'Opérateurs', users: 10, withPaths: 6, completion: 70, completionColour: 'success', high: 3, medium: 2, low: 1 }] }),
    })
    renderRoutes(routes, '/spotv2/dashboards/trainingPath')
    const groups = await screen.findByRole('list', { name: 'Groups' })
    expect(within(groups).getByRole('link', { name: 'Opérateurs' })).toHaveAttribute('href', '/spotv2/dashboards/trainingPath/group/3')
    expect(within(groups).getByText('10 members, 6 with a current path')).toBeInTheDocument()
    expect(within(groups).getByText('70 %')).toHaveAttribute('data-completion', 'success')
    expect(within(groups).getByText('3 high')).toBeInTheDocument()
    expect(within(groups).getByText('1 low')).toBeInTheDocument()
  })

  it('shows a group with its members and their current paths', async () => {
    signedInAs(['perm_TableauBord'], {
      [`GET ${API}/dashboards/trainingPath/group/3`]: () =>
        json({
          group: { id: 3, name: 'Opérateurs' },
          users: [
            { id: 8, name: 'Inès Garnier', completion: -1, completionColour: null, level: 'none', paths: [] },
            {
              id: 9,
              name: 'Jules Perrin',
              completion: 20, completionColour: 'error',
              level: 'low',
              paths: [{ id: 31, title: 'Consignation', status: 'started', startDate: '2026-01-05', stopDate: '2026-12-31', completion: 20, completionColour: 'error' }],
            },
          ],
        }),
    })
    renderRoutes(routes, '/spotv2/dashboards/trainingPath/group/3')
    expect(await screen.findByRole('heading', { name: 'Paths progress: Opérateurs', level: 1 })).toBeInTheDocument()
    const [ines, jules] = within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem').filter((item) => item.hasAttribute('data-level'))
    expect(within(ines).getByRole('heading', { name: 'Inès Garnier' })).toBeInTheDocument()
    expect(within(ines).getByText('Not quantifiable')).toBeInTheDocument()
    expect(within(ines).getByText('No current path')).toBeInTheDocument()
    expect(jules).toHaveAttribute('data-level', 'low')
    expect(within(jules).getByText('20 %')).toHaveAttribute('data-completion', 'error')
    expect(within(jules).getByRole('link', { name: 'Consignation' })).toHaveAttribute('href', '/spotv2/training/path/view/31')
    expect(screen.getByRole('link', { name: 'Back to paths progress' })).toHaveAttribute('href', '/spotv2/dashboards/trainingPath')
  })

  it('shows NotFound for an unknown group', async () => {
    signedInAs(['perm_TableauBord'])
    renderRoutes(routes, '/spotv2/dashboards/trainingPath/group/99')
    expect(await screen.findByText('The page or information sought was not found')).toBeInTheDocument()
  })
})

describe('the contribution dashboard', () => {
  it('sends a user without perm_VisuTrack to Forbidden', async () => {
    signedInAs(['perm_TableauBord'])
    const { router } = renderRoutes(routes, '/spotv2/dashboards/contributions')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
  })

  it('charts the whole map for everyone by default, and holds back an invalid selection with its message', async () => {
    const fetchMock = signedInAs(['perm_VisuTrack'], {
      [`POST ${API}/history/contributions`]: () => json({ granularity: 'week', periods: [{ start: '2026-11-16', views: 4, contributions: 2 }] }),
    })
    renderRoutes(routes, '/spotv2/dashboards/contributions')
    expect(await screen.findByRole('row', { name: 'Week of 2026-11-16 4 2' })).toBeInTheDocument()
    const [first] = sentRequests(fetchMock, `POST ${API}/history/contributions`)
    expect(await first.json()).toMatchObject({ granularity: 'week', count: 78, itemIds: [], userIds: [], groupIds: [] })

    await userEvent.click(screen.getByRole('switch', { name: 'Limit to a location' }))
    expect(screen.getByText('A location must be chosen')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Excel export' })).toBeDisabled()
    await userEvent.click(screen.getByRole('switch', { name: 'Limit to a location' }))

    await userEvent.click(screen.getByRole('switch', { name: 'Limit to some contributors' }))
    expect(screen.getByText('Choose at least one contributor or group')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('switch', { name: 'Limit to some contributors' }))

    const duration = screen.getByRole('textbox', { name: 'Number of weeks' })
    await userEvent.clear(duration)
    await userEvent.type(duration, '79')
    expect(screen.getByText(/The value is out of the allowed range/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Excel export' })).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: 'Months' }))
    expect(screen.getByRole('textbox', { name: 'Number of months' })).toHaveValue('18')
    expect(screen.getByRole('button', { name: 'Excel export' })).toBeEnabled()
  })
})

describe('the qualification dashboards', () => {
  it("show one's own status without any permission, titled 'my qualification status'", async () => {
    const fetchMock = signedInAs([], {
      [`GET ${API}/dashboards/qualifications/user/${ME}`]: () =>
        json({ user: { id: ME, name: 'Gabriel Roux' }, elements: [element('Cariste', 'Conduite de chariot', 12, 'warn')], history: [] }),
    })
    renderRoutes(routes, '/spotv2/dashboard/qualifications/user')
    expect(await screen.findByRole('heading', { name: 'My qualification status', level: 1 })).toBeInTheDocument()
    expect(await screen.findByRole('link', { name: 'Cariste' })).toHaveAttribute('href', '/spotv2/qualification/view/9')
    // The module is no link for who may not open modules.
    expect(screen.getByText('Conduite de chariot')).not.toHaveAttribute('href')
    expect(sentRequests(fetchMock, `GET ${API}/dashboards/qualifications/user/${ME}`)).toHaveLength(1)
  })

  it("send a user to Forbidden for another user's status when the server refuses it", async () => {
    const fetchMock = signedInAs([], { [`GET ${API}/dashboards/qualifications/user/12`]: () => errorBody(403, 'Forbidden', 'forbidden') })
    const { router } = renderRoutes(routes, '/spotv2/dashboard/qualifications/user/12')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
    expect(sentRequests(fetchMock, `GET ${API}/dashboards/qualifications/user/12`)).toHaveLength(1)
  })

  it("name the other user for perm_TableauBord holders, and show NotFound for an unknown one", async () => {
    signedInAs(['perm_TableauBord'], {
      [`GET ${API}/dashboards/qualifications/user/12`]: () => json({ user: { id: 12, name: 'Inès Garnier' }, elements: [], history: [] }),
    })
    const { unmount } = renderRoutes(routes, '/spotv2/dashboard/qualifications/user/12')
    expect(await screen.findByRole('heading', { name: 'Qualification status of Inès Garnier', level: 1 })).toBeInTheDocument()
    unmount()
    signedInAs(['perm_TableauBord'], { [`GET ${API}/dashboards/qualifications/user/13`]: () => errorBody(404, 'Not Found', 'userNotFound') })
    renderRoutes(routes, '/spotv2/dashboard/qualifications/user/13')
    expect(await screen.findByText('The page or information sought was not found')).toBeInTheDocument()
  })

  it.each(['/spotv2/dashboards/qualifications/cartography/2', '/spotv2/dashboard/qualifications/group/3'])(
    'send a user without perm_TableauBord from %s to Forbidden',
    async (address) => {
      signedInAs(['perm_VisuTrack'])
      const { router } = renderRoutes(routes, address)
      await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
    },
  )

  it('show a cartography with its functions flagged by coverage, people linked to their status', async () => {
    signedInAs(['perm_TableauBord'], {
      [`GET ${API}/dashboards/qualifications/cartography/2`]: () =>
        json({
          cartography: { id: 2, name: 'Atelier', siteName: 'Lyon' },
          elements: [
            {
              item: {
                id: 9,
                name: 'Cariste',
                total: 1,
                obtained: 1,
                counts: { good: 1, warn: 0, none: 0 },
                remainingDays: 40,
                state: 'good',
                validUntil: null,
                link: { type: 'qualification', id: 9 },
              },
              children: [
                { id: 8, name: 'Inès Garnier', remainingDays: 40, state: 'good', validUntil: '2027-01-03', validationTrainingPath: 5, requalificationTrainingPath: null, link: { type: 'user', id: 8 } },
              ],
            },
          ],
          coverage: [
            { function: { id: 20, name: 'Soudure' }, qualified: [], level: 'none', minimum: 3, underMinimum: true },
            {
              function: { id: 21, name: 'Cariste' },
              qualified: [{ user: { id: 8, name: 'Inès Garnier' }, remainingDays: 40, validUntil: '2027-01-03', qualificationId: 9 }],
              level: 'single',
              minimum: 1,
              underMinimum: false,
            },
          ],
          forecast: [
            {
              function: { id: 21, name: 'Cariste' },
              cartographyId: 2,
              minimum: 1,
              outlook: 'falling',
              fallsOn: '2027-01-04',
              points: [
                { days: 0, date: '2026-11-24', valid: 1, requalifying: 0, underMinimum: false },
                { days: 30, date: '2026-12-24', valid: 1, requalifying: 0, underMinimum: false },
                { days: 60, date: '2027-01-23', valid: 0, requalifying: 1, underMinimum: true },
                { days: 90, date: '2027-02-22', valid: 0, requalifying: 1, underMinimum: true },
              ],
            },
          ],
        }),
    }, sessionCan({ seeQualificationDashboards: true }))
    renderRoutes(routes, '/spotv2/dashboards/qualifications/cartography/2')
    expect(await screen.findByRole('heading', { name: 'Qualifications of the cartography Atelier', level: 1 })).toBeInTheDocument()
    const coverage = screen.getByRole('list', { name: 'Coverage of the functions' })
    const rows = within(coverage).getAllByRole('listitem').filter((row) => row.hasAttribute('data-level'))
    expect(rows.map((row) => row.getAttribute('data-level'))).toEqual(['none', 'single'])
    expect(within(rows[0]).getByText('Nobody qualified')).toBeInTheDocument()
    expect(within(rows[0]).getByText('Under its minimum (0 of 3)')).toBeInTheDocument()
    expect(within(rows[1]).queryByText(/Under its minimum/)).not.toBeInTheDocument()
    expect(within(rows[1]).getByRole('link', { name: 'Inès Garnier' })).toHaveAttribute('href', '/spotv2/dashboard/qualifications/user/8')
    const holders = screen.getByRole('region', { name: 'Qualifications' })
    expect(within(holders).getByRole('link', { name: 'Inès Garnier' })).toHaveAttribute('href', '/spotv2/dashboard/qualifications/user/8')

    // Tomorrow's coverage: Cariste falls under its minimum of 1 in January, Inès being requalified.
    const tomorrow = within(screen.getByRole('region', { name: "Tomorrow's coverage" })).getByRole('table')
    expect(within(tomorrow).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Function',
      'Outlook',
      'Minimum',
      'Today',
      'In 30 days',
      'In 60 days',
      'In 90 days',
    ])
    const cariste = within(tomorrow).getByRole('row', { name: /Cariste/ })
    expect(within(cariste).getByRole('rowheader', { name: 'Cariste' })).toBeInTheDocument()
    expect(cariste).toHaveAttribute('data-outlook', 'falling')
    expect(within(cariste).getByText('Falls under its minimum on 2027-01-04')).toBeInTheDocument()
    expect(within(cariste).getAllByRole('cell').slice(2).map((cell) => cell.textContent)).toEqual([
      '1',
      '1',
      '0, under its minimum1 being requalified',
      '0, under its minimum1 being requalified',
    ])
  })
})
