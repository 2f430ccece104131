import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { storeToken } from '../../lib/session'
import { renderRoutes } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'
import { routes } from '../router'
import { sessionCan } from '../../test/session'

const CHANGED = { kind: 'subjectChanged', args: { name: 'Changer une plaquette' }, date: '2026-03-02T08:05:00Z', target: { type: 'subject', id: 5 } }
const NEVER_VISITED = { kind: 'subjectChanged', args: { name: 'Mesurer une cote' }, date: '2026-03-01T16:30:00Z', target: { type: 'subject', id: 9 } }

function signedInAs(
  permissions: string[],
  alerts: { alerts: unknown[]; count: number } | Promise<Response> = { alerts: [], count: 0 },
  can = sessionCan(),
) {
  storeToken('token')
  return fakeServer({
    'GET /backend/api/v2/account/whoAmI': () =>
      json({ id: 7, login: 'hfournier', firstName: 'Hélène', lastName: 'Fournier', externalId: null, displayName: 'Hélène Fournier', groups: [], permissions, can }),
    'GET /backend/api/v2/organization/info': () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null }),
    'GET /backend/api/v2/account/alerts': () => (alerts instanceof Promise ? alerts : json(alerts)),
    'GET /backend/api/v2/discussion/unread': () => json([]),
  })
}

describe('the plus menu', () => {
  it('offers a new subject to a user holding perm_EditPdv, and leads to its page', async () => {
    signedInAs(['perm_EditPdv'])
    const { router } = renderRoutes(routes, '/spotv2/forbidden')
    await userEvent.click(await screen.findByRole('button', { name: 'Create' }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['New subject', 'New mediation', 'Create and start a mediation'])
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'New subject' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/subject/add'))
  })

  it('offers any signed-in user the mediations: a new one, or one created and started at once', async () => {
    signedInAs(['perm_SetPermissions', 'perm_RemPdv'])
    const { router } = renderRoutes(routes, '/spotv2/forbidden')
    await userEvent.click(await screen.findByRole('button', { name: 'Create' }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getAllByRole('menuitem').map((item) => item.getAttribute('href'))).toEqual([
      '/spotv2/mediation/add',
      '/spotv2/mediation/add?mode=start',
    ])
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Create and start a mediation' }))
    await waitFor(() => expect(router.state.location.search).toBe('?mode=start'))
  })
})

describe('the bell', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('shows the count as a badge and each alert as a sentence with its date, linking to its page', async () => {
    signedInAs([], { alerts: [CHANGED, NEVER_VISITED], count: 2 })
    renderRoutes(routes, '/spotv2/forbidden')
    const bell = await screen.findByRole('button', { name: 'Alerts: 2 awaiting you' })
    expect(within(bell).getByText('2')).toBeVisible()
    await userEvent.click(bell)
    const panel = await screen.findByRole('dialog', { name: 'Awaiting you' })
    const links = within(panel).getAllByRole('link')
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/spotv2/subject/5', '/spotv2/subject/9'])
    expect(links[0]).toHaveTextContent('“Changer une plaquette” changed since your last visit')
    expect(links[0]).toHaveTextContent('2026-03-02')
    expect(links[1]).toHaveTextContent('“Mesurer une cote” changed since your last visit')
  })

  it('words the mediations awaiting the user and links each to its page', async () => {
    const mediation = (kind: string, id: number, title: string) => ({ kind, args: { title }, date: '2026-03-02T08:05:00Z', target: { type: 'mediation', id } })
    signedInAs([], {
      alerts: [
        mediation('mediationToStart', 1, 'Réglage du tour'),
        mediation('mediationToReport', 2, 'Panne de la presse'),
        mediation('mediationToValidate', 3, 'Tri des déchets'),
        mediation('mediationToSign', 4, 'Rangement'),
      ],
      count: 4,
    })
    renderRoutes(routes, '/spotv2/forbidden')
    await userEvent.click(await screen.findByRole('button', { name: 'Alerts: 4 awaiting you' }))
    const links = within(await screen.findByRole('dialog', { name: 'Awaiting you' })).getAllByRole('link')
    expect(links.map((link) => link.getAttribute('href'))).toEqual([1, 2, 3, 4].map((id) => `/spotv2/mediation/view/${id}`))
    const sentences = [
      'Start the mediation “Réglage du tour”',
      'Write the report of the mediation “Panne de la presse”',
      'Validate the mediation “Tri des déchets”',
      'Sign the mediation “Rangement”',
    ]
    sentences.forEach((sentence, index) => expect(links[index]).toHaveTextContent(sentence))
  })

  it('words the training paths and modules awaiting the user and links each to its path', async () => {
    const path = (kind: string, id: number, args: Record<string, string>) => ({ kind, args, date: '2026-03-02T08:05:00Z', target: { type: 'trainingPath', id } })
    signedInAs([], {
      alerts: [
        path('trainingPathToAccept', 1, { title: 'Sécurité' }),
        path('trainingModuleToStart', 2, { title: 'Maintenance', module: 'Consignation' }),
        path('trainingModuleToGrade', 3, { title: 'Maintenance', module: 'Hauteur' }),
        path('trainingModuleToSign', 4, { title: 'Accueil', module: 'Visite' }),
        path('trainingPathToSign', 5, { title: 'Qualité' }),
      ],
      count: 5,
    })
    renderRoutes(routes, '/spotv2/forbidden')
    await userEvent.click(await screen.findByRole('button', { name: 'Alerts: 5 awaiting you' }))
    const links = within(await screen.findByRole('dialog', { name: 'Awaiting you' })).getAllByRole('link')
    expect(links.map((link) => link.getAttribute('href'))).toEqual([1, 2, 3, 4, 5].map((id) => `/spotv2/training/path/view/${id}`))
    const sentences = [
      'Accept the training path “Sécurité”',
      'Start the module “Consignation” of the path “Maintenance”',
      'Grade the module “Hauteur” of the path “Maintenance”',
      'Sign the module “Visite” of the path “Accueil”',
      'Sign the training path “Qualité”',
    ]
    sentences.forEach((sentence, index) => expect(links[index]).toHaveTextContent(sentence))
  })

  it('follows an alert to its page, which leaves the bell', async () => {
    signedInAs([], { alerts: [CHANGED, NEVER_VISITED], count: 2 })
    const { router } = renderRoutes(routes, '/spotv2/forbidden')
    await userEvent.click(await screen.findByRole('button', { name: 'Alerts: 2 awaiting you' }))
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('link', { name: /Changer une plaquette/ }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/subject/5'))
    expect(await screen.findByRole('button', { name: 'Alerts: 1 awaiting you' })).toBeInTheDocument()
  })

  it('hides the badge at 0 and says that nothing awaits', async () => {
    signedInAs([])
    renderRoutes(routes, '/spotv2/forbidden')
    const bell = await screen.findByRole('button', { name: 'Alerts' })
    expect(within(bell).queryByText('0')).not.toBeInTheDocument()
    await userEvent.click(bell)
    expect(await screen.findByText('Nothing awaits you.')).toBeInTheDocument()
  })

  it('says it is loading, not that nothing awaits, until the alerts are read', async () => {
    let answer: (response: Response) => void = () => undefined
    signedInAs([], new Promise<Response>((resolve) => (answer = resolve)))
    renderRoutes(routes, '/spotv2/forbidden')
    await userEvent.click(await screen.findByRole('button', { name: 'Alerts' }))
    const panel = await screen.findByRole('dialog', { name: 'Awaiting you' })
    expect(within(panel).getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument()
    expect(within(panel).queryByText('Nothing awaits you.')).not.toBeInTheDocument()
    answer(json({ alerts: [], count: 0 }))
    expect(await within(panel).findByText('Nothing awaits you.')).toBeInTheDocument()
  })

  it('says how many there are when the server sent only the newest', async () => {
    signedInAs([], { alerts: [CHANGED], count: 73 })
    renderRoutes(routes, '/spotv2/forbidden')
    await userEvent.click(await screen.findByRole('button', { name: 'Alerts: 73 awaiting you' }))
    expect(await screen.findByText('The 1 newest of 73.')).toBeInTheDocument()
  })

  it('reads the alerts again every 3 minutes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const server = signedInAs([])
    renderRoutes(routes, '/spotv2/forbidden')
    await screen.findByRole('button', { name: 'Alerts' })
    const before = sentRequests(server, 'GET /backend/api/v2/account/alerts').length
    await vi.advanceTimersByTimeAsync(2 * 60_000)
    expect(sentRequests(server, 'GET /backend/api/v2/account/alerts')).toHaveLength(before)
    await vi.advanceTimersByTimeAsync(60_000)
    await waitFor(() => expect(sentRequests(server, 'GET /backend/api/v2/account/alerts')).toHaveLength(before + 1))
  })

  it('reads the alerts again when the window comes back into focus', async () => {
    const server = signedInAs([])
    renderRoutes(routes, '/spotv2/forbidden')
    await screen.findByRole('button', { name: 'Alerts' })
    const before = sentRequests(server, 'GET /backend/api/v2/account/alerts').length
    window.dispatchEvent(new Event('visibilitychange'))
    await waitFor(() => expect(sentRequests(server, 'GET /backend/api/v2/account/alerts').length).toBeGreaterThan(before))
  })
})

describe('qualifications in the menus', () => {
  it('offers a new qualification to whom the server lets create one', async () => {
    signedInAs([], undefined, sessionCan({ createQualifications: true }))
    const { router } = renderRoutes(routes, '/spotv2/forbidden')
    await userEvent.click(await screen.findByRole('button', { name: 'Create' }))
    await userEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'New qualification' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/qualification/add'))
  })

  it('leads anyone from the account menu to their own qualification status', async () => {
    signedInAs([])
    const { router } = renderRoutes(routes, '/spotv2/forbidden')
    await userEvent.click(await screen.findByRole('button', { name: 'Account' }))
    await userEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'My qualifications' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/dashboard/qualifications/user'))
  })
})
