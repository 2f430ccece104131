import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { routes } from '../../app/router'
import i18n from '../../i18n'
import { storeToken } from '../../lib/session'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import enNotifications from '../../i18n/en/notifications.json'
import enUsers from '../../i18n/en/users.json'

const PREFERENCES = 'GET /backend/api/v2/notifications/preferences'
const SAVE = 'PUT /backend/api/v2/notifications/preferences'
const PAGE = '/spotv2/account/notifications'

type Row = { kind: string; group: string; mode: string; default: string }
const row = (kind: string, group: string, mode: string, byDefault = mode): Row => ({ kind, group, mode, default: byDefault })
const PREFERENCES_BODY = {
  address: 'alice.martin@usine.example',
  preferences: [
    row('mediationInvitation', 'mediations', 'now'),
    row('mediationToSign', 'mediations', 'now'),
    row('trainingPathToSign', 'training', 'now'),
    row('qualificationExpiring', 'qualifications', 'now'),
    row('subjectChanged', 'subjects', 'never', 'digest'),
  ],
}

function signedIn(handlers: Record<string, (request: Request) => Response | Promise<Response>>) {
  storeToken('token')
  return fakeServer({
    'GET /backend/api/v2/account/whoAmI': () =>
      json({ id: 1, login: 'alice', firstName: 'Alice', lastName: 'Martin', externalId: null, displayName: 'Alice Martin', groups: [], permissions: [] }),
    'GET /backend/api/v2/organization/info': () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null }),
    'GET /backend/api/v2/account/alerts': () => json({ alerts: [], count: 0 }),
    'GET /backend/api/v2/discussion/unread': () => json([]),
    [PREFERENCES]: () => json(PREFERENCES_BODY),
    ...handlers,
  })
}

const choiceOf = (kind: string) => screen.getByRole('radiogroup', { name: kind })

describe('the notification preferences page', () => {
  it('opens from the account menu', async () => {
    signedIn({})
    const { router } = renderRoutes(routes, '/spotv2/forbidden')
    await userEvent.click(await screen.findByRole('button', { name: 'Account' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Messages I receive' }))
    expect(await screen.findByRole('heading', { name: 'Messages I receive' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe(PAGE)
    await waitFor(() => expect(document.title).toBe('Messages I receive - Spot - ACME'))
  })

  it('shows each kind in its group with its mode and its default', async () => {
    signedIn({})
    renderRoutes(routes, PAGE)
    const mediations = await screen.findByRole('region', { name: 'Mediations' })
    expect(within(mediations).getAllByRole('radiogroup').map((group) => group.getAttribute('aria-labelledby'))).toEqual([
      'notification-kind-mediationInvitation',
      'notification-kind-mediationToSign',
    ])
    expect(screen.getAllByRole('region').map((region) => region.getAttribute('aria-label'))).toEqual([
      'Mediations',
      'Training paths',
      'Qualifications',
      'Followed subjects',
    ])
    expect(within(choiceOf('A mediation to sign')).getByRole('radio', { name: 'Immediately' })).toBeChecked()
    const subjects = screen.getByRole('region', { name: 'Followed subjects' })
    expect(within(subjects).getByText('By default: Daily digest')).toBeInTheDocument()
    expect(within(choiceOf('A subject I follow changed')).getByRole('radio', { name: 'Never' })).toBeChecked()
    expect(screen.getByText('Messages go to alice.martin@usine.example.')).toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    // Nothing changed yet: nothing to save.
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
  })

  it('saves the choices and says so', async () => {
    const fetchMock = signedIn({
      [SAVE]: async (request) => {
        const body = (await request.clone().json()) as { preferences: { kind: string; mode: string }[] }
        const modes = Object.fromEntries(body.preferences.map((preference) => [preference.kind, preference.mode]))
        return json({ preferences: PREFERENCES_BODY.preferences.map((preference) => ({ ...preference, mode: modes[preference.kind] })) })
      },
    })
    renderRoutes(routes, PAGE)
    await userEvent.click(within(await screen.findByRole('radiogroup', { name: 'A mediation to sign' })).getByRole('radio', { name: 'Never' }))
    await userEvent.click(within(choiceOf('My qualification expiring')).getByRole('radio', { name: 'Daily digest' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Your choices are saved')).toBeInTheDocument()
    const [sent] = sentRequests(fetchMock, SAVE)
    const body = (await sent.json()) as { preferences: { kind: string; mode: string }[] }
    expect(body.preferences).toContainEqual({ kind: 'mediationToSign', mode: 'never' })
    expect(body.preferences).toContainEqual({ kind: 'qualificationExpiring', mode: 'digest' })
    expect(body.preferences).toContainEqual({ kind: 'subjectChanged', mode: 'never' })
    expect(within(choiceOf('A mediation to sign')).getByRole('radio', { name: 'Never' })).toBeChecked()
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
  })

  it('keeps the choices when a save is refused, and says why', async () => {
    signedIn({ [SAVE]: () => errorBody(400, 'Bad Request', 'unknownNotificationKind', [{ field: 'preferences.0.kind', code: 'unknownNotificationKind' }]) })
    renderRoutes(routes, PAGE)
    await userEvent.click(within(await screen.findByRole('radiogroup', { name: 'A training path to sign' })).getByRole('radio', { name: 'Never' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('This kind of message is unknown to Spot')
    expect(within(choiceOf('A training path to sign')).getByRole('radio', { name: 'Never' })).toBeChecked()
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
    // Cancel puts back what is saved.
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(within(choiceOf('A training path to sign')).getByRole('radio', { name: 'Immediately' })).toBeChecked()
  })

  it('says that Spot cannot write to a person without an e-mail address, and still lets them choose', async () => {
    signedIn({ [PREFERENCES]: () => json({ ...PREFERENCES_BODY, address: null }) })
    renderRoutes(routes, PAGE)
    expect(await screen.findByText(/Your account has no e-mail address: Spot cannot write to you/)).toBeInTheDocument()
    expect(screen.getByRole('radiogroup', { name: 'A mediation to sign' })).toBeEnabled()
  })

  it('says it in French', async () => {
    await i18n.changeLanguage('fr')
    signedIn({})
    renderRoutes(routes, PAGE)
    expect(await screen.findByRole('heading', { name: 'Messages que je reçois' })).toBeInTheDocument()
    expect(within(await screen.findByRole('radiogroup', { name: 'Un sujet que je suis a changé' })).getByRole('radio', { name: 'Jamais' })).toBeChecked()
    expect(screen.getByText('Par défaut : Récapitulatif quotidien')).toBeInTheDocument()
  })
})

describe('the names of the kinds', () => {
  it('are the same kinds on this page and on the outbox page, which also names the test message and the digest', () => {
    const named = Object.keys(enNotifications.notifications.kinds).sort()
    expect(Object.keys(enUsers.outbox.kinds).sort()).toEqual([...named, 'digest', 'test'].sort())
  })
})
