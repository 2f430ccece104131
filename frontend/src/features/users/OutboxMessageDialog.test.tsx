import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { formatDateTime } from '../../lib/dates'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { OutboxPage } from './OutboxPage'

const OUTBOX = 'GET /backend/api/v2/notifications/outbox'
const MESSAGE_7 = 'GET /backend/api/v2/notifications/outbox/7'

const CREATED_AT = '2026-11-28T09:15:00Z'
const SENT_AT = '2026-11-28T09:15:04Z'
const card = {
  id: 7,
  createdAt: CREATED_AT,
  kind: 'test',
  toAddress: 'alice.martin@usine.example',
  language: 'fr',
  subject: "Spot : un message d'essai",
  status: 'sent',
  attempts: 1,
  nextAttemptAt: CREATED_AT,
  lastError: null,
  sentAt: SENT_AT,
}
const TEXT = "Bonjour Alice,\n\nCeci est un message d'essai.\n\nOuvrir Spot : https://spot.example/spotv2/administration/outbox"
const HTML = '<p>Bonjour Alice,</p><p>Ceci est un <b>message d\'essai</b>.</p><script>parent.alert("no")</script>'
const CALENDAR = 'BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nSUMMARY:Médiation\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n'

function renderOutbox(message: () => Response) {
  const fetchMock = fakeServer({
    [OUTBOX]: () => json({ messages: [card], total: 1, counts: { queued: 0, sending: 0, sent: 1, failed: 0 }, sendingEnabled: true }),
    [MESSAGE_7]: message,
  })
  renderRoutes([{ path: 'administration/outbox', Component: OutboxPage }], '/spotv2/administration/outbox')
  return fetchMock
}

describe('a message of the outbox', () => {
  it('opens from its subject and shows it as it left: to whom, its status, its plain text and its HTML in a sandbox', async () => {
    const fetchMock = renderOutbox(() => json({ ...card, textBody: TEXT, htmlBody: HTML, calendar: null }))
    await userEvent.click(await screen.findByRole('button', { name: "Spot : un message d'essai" }))
    const dialog = await screen.findByRole('dialog', { name: "Spot : un message d'essai" })
    expect(await within(dialog).findByText(TEXT.split('\n')[0], { exact: false })).toBeInTheDocument()
    expect(dialog).toHaveTextContent('Toalice.martin@usine.example')
    expect(dialog).toHaveTextContent('StatusSent')
    expect(dialog).toHaveTextContent('KindTest message')
    expect(dialog).toHaveTextContent('LanguageFrançais')
    expect(dialog).toHaveTextContent(`Sent${formatDateTime(SENT_AT, 'en')}`)
    expect(dialog).toHaveTextContent('Attempts1')

    // The plain text keeps its lines.
    const text = within(within(dialog).getByRole('region', { name: 'Plain text' })).getByText(/Bonjour Alice/)
    expect(text.tagName).toBe('PRE')
    expect(text.textContent).toBe(TEXT)
    expect(getComputedStyle(text).whiteSpace).toBe('pre-wrap')

    // The HTML is drawn where no script runs and nothing reaches Spot.
    const frame = within(dialog).getByTitle("The message Spot : un message d'essai as it shows")
    expect(frame.tagName).toBe('IFRAME')
    expect(frame).toHaveAttribute('sandbox', '')
    expect(frame).toHaveAttribute('srcdoc', HTML)
    expect(within(dialog).queryByRole('region', { name: 'Invitation (iCalendar)' })).not.toBeInTheDocument()
    expect(sentRequests(fetchMock, MESSAGE_7)).toHaveLength(1)

    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('opens from anywhere on its row, and shows the invitation when there is one', async () => {
    renderOutbox(() => json({ ...card, textBody: TEXT, htmlBody: HTML, calendar: CALENDAR }))
    await userEvent.click(within(await screen.findByRole('row', { name: /un message d'essai/ })).getByText('alice.martin@usine.example'))
    const dialog = await screen.findByRole('dialog', { name: "Spot : un message d'essai" })
    const invitation = await within(dialog).findByRole('region', { name: 'Invitation (iCalendar)' })
    expect(within(invitation).getByText(/BEGIN:VCALENDAR/).textContent).toBe(CALENDAR)
  })

  it('shows why a message waits, and when it is tried again', async () => {
    const waiting = { ...card, status: 'queued', attempts: 2, nextAttemptAt: '2026-11-28T09:20:00Z', lastError: 'Connection refused', sentAt: null }
    renderOutbox(() => json({ ...waiting, textBody: TEXT, htmlBody: HTML, calendar: null }))
    await userEvent.click(await screen.findByRole('button', { name: "Spot : un message d'essai" }))
    const dialog = await screen.findByRole('dialog', { name: "Spot : un message d'essai" })
    expect(await within(dialog).findByText('Connection refused')).toBeInTheDocument()
    expect(dialog).toHaveTextContent(`Next attempt${formatDateTime('2026-11-28T09:20:00Z', 'en')}Attempts2ErrorConnection refused`)
    expect(dialog).toHaveTextContent('StatusQueued')
  })

  it('says when the message is no longer there', async () => {
    renderOutbox(() => errorBody(404, 'Not Found', 'messageNotFound'))
    await userEvent.click(await screen.findByRole('button', { name: "Spot : un message d'essai" }))
    const dialog = await screen.findByRole('dialog', { name: 'Message' })
    expect(await within(dialog).findByText('This message does not exist (any more)')).toBeInTheDocument()
    // The dialog said it; the error dialog stays closed.
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })
})
