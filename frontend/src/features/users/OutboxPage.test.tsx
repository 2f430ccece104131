import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { routes } from '../../app/router'
import i18n from '../../i18n'
import { formatDateTime } from '../../lib/dates'
import { storeToken } from '../../lib/session'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { OutboxPage } from './OutboxPage'

const OUTBOX = 'GET /backend/api/v2/notifications/outbox'
const TEST = 'POST /backend/api/v2/notifications/outbox/test'
const PAGE = '/spotv2/administration/outbox'

const CREATED_AT = '2026-11-28T09:15:00Z'
const card = (id: number, fields: Record<string, unknown> = {}) => ({
  id,
  createdAt: CREATED_AT,
  kind: 'test',
  toAddress: 'alice.martin@usine.example',
  language: 'en',
  subject: `Message ${id}`,
  status: 'sent',
  attempts: 1,
  nextAttemptAt: CREATED_AT,
  lastError: null,
  sentAt: CREATED_AT,
  ...fields,
})
const sent = card(3, { subject: 'Spot: a test message' })
const failed = card(2, {
  kind: 'mediationInvitation',
  toAddress: 'gabriel.roux@usine.example',
  subject: 'Mediation scheduled',
  status: 'failed',
  attempts: 1,
  lastError: '550 5.1.1 Recipient address rejected: User unknown',
  sentAt: null,
})
const waiting = card(1, {
  kind: 'qualificationExpiry',
  subject: 'Waiting for the server',
  status: 'queued',
  attempts: 2,
  nextAttemptAt: '2026-11-28T09:20:00Z',
  lastError: 'Connection refused',
  sentAt: null,
})
const COUNTS = { queued: 1, sending: 0, sent: 1, failed: 1 }
const page = (messages: unknown[], fields: Record<string, unknown> = {}) => ({ messages, total: messages.length, counts: COUNTS, sendingEnabled: true, ...fields })

/** The outbox of three messages, or of those of the status asked for. */
function outbox(fields: Record<string, unknown> = {}) {
  return (request: Request) => {
    const status = new URL(request.url).searchParams.get('status')
    const all = [sent, failed, waiting]
    return json(page(status ? all.filter((message) => message.status === status) : all, fields))
  }
}

const renderOutbox = (entry = PAGE) => renderRoutes([{ path: 'administration/outbox', Component: OutboxPage }], entry)
const rowOf = (subject: string) => screen.getByRole('row', { name: new RegExp(subject) })

describe('the outbox page', () => {
  it('lists the messages, newest first, with the count of each status, and filters them by status', async () => {
    const fetchMock = fakeServer({ [OUTBOX]: outbox() })
    const { router } = renderOutbox()
    const table = await screen.findByRole('table', { name: 'Messages' })
    const [, first, second, third] = within(table).getAllByRole('row')
    // Each cell, then beneath the subject the address and date that a phone shows there (its own columns give way).
    const created = formatDateTime(CREATED_AT, 'en')
    expect(first).toHaveTextContent(`${created}Test messagealice.martin@usine.exampleSpot: a test message`)
    expect(first).toHaveTextContent(`alice.martin@usine.example · ${created}Sent1`)
    // A failure says why.
    expect(second).toHaveTextContent('Mediation invitationgabriel.roux@usine.exampleMediation scheduled')
    expect(second).toHaveTextContent('550 5.1.1 Recipient address rejected: User unknownFailed1')
    // A message waiting after a failed attempt says why, and when it is tried again; a kind this client
    // does not know yet shows as the server names it.
    expect(third).toHaveTextContent('qualificationExpiryalice.martin@usine.exampleWaiting for the server')
    expect(third).toHaveTextContent('Connection refused')
    expect(third).toHaveTextContent(`QueuedNext attempt ${formatDateTime('2026-11-28T09:20:00Z', 'en')}2`)
    expect(screen.queryByRole('navigation', { name: /pagination/i })).not.toBeInTheDocument()

    const filters = screen.getByRole('group', { name: 'Messages shown' })
    expect(within(filters).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'All 3',
      'Queued 1',
      'Kept for the digest 0',
      'Sending 0',
      'Sent 1',
      'In a digest 0',
      'Failed 1',
    ])
    expect(within(filters).getByRole('button', { name: 'All 3' })).toHaveAttribute('aria-pressed', 'true')

    await userEvent.click(within(filters).getByRole('button', { name: 'Failed 1' }))
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2))
    expect(rowOf('Mediation scheduled')).toBeInTheDocument()
    expect(within(filters).getByRole('button', { name: 'Failed 1' })).toHaveAttribute('aria-pressed', 'true')
    expect(router.state.location.search).toBe('?status=failed')
    // Read again every few seconds while messages wait for a mail server that is set.
    expect(new Set(sentRequests(fetchMock, OUTBOX).map((request) => new URL(request.url).search))).toEqual(new Set(['?page=1', '?status=failed&page=1']))

    await userEvent.click(within(filters).getByRole('button', { name: 'All 3' }))
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4))
    expect(router.state.location.search).toBe('')
  })

  it('opens on the status and the page of its address, and pages through more than fifty messages', async () => {
    const many = Array.from({ length: 50 }, (_, index) => card(200 - index, { status: 'failed', lastError: 'Refused' }))
    const fetchMock = fakeServer({ [OUTBOX]: () => json(page(many, { total: 120, counts: { ...COUNTS, failed: 120 } })) })
    const { router } = renderOutbox(`${PAGE}?status=failed&page=2`)
    expect(await screen.findByRole('row', { name: /Message 200/ })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Failed 120' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByRole('button', { name: 'page 2' })).toHaveAttribute('aria-current', 'page')
    await userEvent.click(screen.getByRole('button', { name: 'Go to page 3' }))
    await waitFor(() => expect(router.state.location.search).toBe('?status=failed&page=3'))
    await waitFor(() => expect(sentRequests(fetchMock, OUTBOX).map((request) => new URL(request.url).search)).toContain('?status=failed&page=3'))
    expect(sentRequests(fetchMock, OUTBOX)[0].url).toMatch(/\?status=failed&page=2$/)
  })

  it('shows the messages kept for the daily digest and those gathered in one, each with its own label', async () => {
    const held = card(6, { kind: 'subjectChanged', subject: 'Subject changed today', status: 'held', attempts: 0, sentAt: null })
    const digested = card(5, { kind: 'subjectChanged', subject: 'Subject changed before', status: 'digested', attempts: 0, sentAt: null })
    const digest = card(7, { kind: 'digest', subject: 'Spot: your daily digest (1)' })
    const counts = { ...COUNTS, held: 1, digested: 1, sent: 2 }
    fakeServer({ [OUTBOX]: () => json(page([digest, held, digested], { counts })) })
    renderOutbox()
    expect(await screen.findByRole('row', { name: /Subject changed before/ })).toHaveTextContent('In a digest')
    expect(rowOf('Subject changed today')).toHaveTextContent('Kept for the digest')
    expect(rowOf('daily digest')).toHaveTextContent('Daily digest')
    expect(screen.getByRole('button', { name: 'Kept for the digest 1' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'In a digest 1' })).toBeInTheDocument()
  })

  it('says that messages wait when no mail server is set, and only then', async () => {
    fakeServer({ [OUTBOX]: outbox({ sendingEnabled: false }) })
    renderOutbox()
    expect(await screen.findByText(/No mail server is set \(SPOT_SMTP_URL\): messages wait here/)).toBeInTheDocument()
  })

  it('shows no warning when the mail server is set', async () => {
    fakeServer({ [OUTBOX]: () => json(page([])) })
    renderOutbox()
    expect(await screen.findByText('No message here')).toBeInTheDocument()
    expect(screen.queryByText(/No mail server is set/)).not.toBeInTheDocument()
  })

  it('sends a test message to oneself, and shows it in the list', async () => {
    const queued = card(4, { subject: 'Spot: a test message, again', status: 'queued', attempts: 0, sentAt: null })
    const fetchMock = fakeServer({
      [OUTBOX]: () => json(sentRequests(fetchMock, TEST).length === 0 ? page([sent]) : page([queued, sent])),
      [TEST]: () => json({ ...queued, textBody: 'Hello', htmlBody: '<p>Hello</p>', calendar: null }, 201),
    })
    renderOutbox()
    await screen.findByRole('row', { name: /Spot: a test message/ })
    await userEvent.click(screen.getByRole('button', { name: 'Send a test message' }))
    expect(await screen.findByText('A test message to alice.martin@usine.example is on its way')).toBeInTheDocument()
    expect(await screen.findByRole('row', { name: /Spot: a test message, again/ })).toHaveTextContent('Queued')
    expect(sentRequests(fetchMock, TEST)).toHaveLength(1)
  })

  it('says that the test message waits when no mail server is set', async () => {
    const queued = card(4, { status: 'queued', attempts: 0, sentAt: null })
    fakeServer({
      [OUTBOX]: outbox({ sendingEnabled: false }),
      [TEST]: () => json({ ...queued, textBody: 'Hello', htmlBody: '<p>Hello</p>', calendar: null }, 201),
    })
    renderOutbox()
    await screen.findByText(/No mail server is set/)
    await userEvent.click(screen.getByRole('button', { name: 'Send a test message' }))
    expect(await screen.findByText('A test message to alice.martin@usine.example waits here until a mail server is set')).toBeInTheDocument()
  })

  it('says why no test message can be sent to a person without an e-mail address', async () => {
    fakeServer({ [OUTBOX]: () => json(page([])), [TEST]: () => errorBody(400, 'Bad Request', 'noEmailAddress') })
    renderOutbox()
    await screen.findByText('No message here')
    await userEvent.click(screen.getByRole('button', { name: 'Send a test message' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account has no e-mail address')
    // The page said it; the error dialog stays closed.
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
    expect(screen.queryByText(/is on its way/)).not.toBeInTheDocument()
  })

  it('says it in French', async () => {
    await i18n.changeLanguage('fr')
    fakeServer({ [OUTBOX]: outbox({ sendingEnabled: false }) })
    renderOutbox()
    expect(await screen.findByText(/Aucun serveur de messagerie n'est défini \(SPOT_SMTP_URL\)/)).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: "Envoyer un message d'essai" })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'En échec 1' })).toBeInTheDocument()
    expect(rowOf('Spot: a test message')).toHaveTextContent("Message d'essai")
  })
})

describe('the way to the outbox', () => {
  function signedInAs(permissions: string[]) {
    storeToken('token')
    fakeServer({
      'GET /backend/api/v2/account/whoAmI': () =>
        json({ id: 1, login: 'admin', firstName: 'Alice', lastName: 'Martin', externalId: null, displayName: 'Alice Martin', groups: [], permissions }),
      'GET /backend/api/v2/organization/info': () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null }),
      'GET /backend/api/v2/account/alerts': () => json({ alerts: [], count: 0 }),
      'GET /backend/api/v2/discussion/unread': () => json([]),
      [OUTBOX]: outbox(),
    })
  }

  it('is an entry of the drawer for those who manage users, and opens the page', async () => {
    signedInAs(['perm_UserManagement'])
    const { router } = renderRoutes(routes, '/spotv2/forbidden')
    await userEvent.click(await screen.findByRole('button', { name: 'Show or hide the navigation' }))
    const entry = await screen.findByRole('link', { name: 'Outbox' })
    expect(entry).toHaveAttribute('href', PAGE)
    await userEvent.click(entry)
    expect(await screen.findByRole('heading', { name: 'Outbox' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe(PAGE)
    await waitFor(() => expect(document.title).toBe('Outbox - Spot - ACME'))
  })

  it('is neither shown nor open to others', async () => {
    signedInAs(['perm_SetPermissions'])
    const { router } = renderRoutes(routes, PAGE)
    expect(await screen.findByText('Insufficient rights to access this information')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/spotv2/forbidden')
    await userEvent.click(screen.getByRole('button', { name: 'Show or hide the navigation' }))
    expect(await screen.findByRole('link', { name: 'Group permissions' })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Outbox' })).not.toBeInTheDocument()
  })
})
