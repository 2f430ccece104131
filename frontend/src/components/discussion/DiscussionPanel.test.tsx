import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import type { Discussion, Message } from './api'
import { DiscussionPanel } from './DiscussionPanel'

const GET = 'GET /backend/api/v2/discussion/7'
const POST = 'POST /backend/api/v2/discussion/7'

const message = (id: number, changes: Partial<Message> = {}): Message => ({
  id,
  author: { id: 3, name: 'Alice Martin' },
  date: '2026-03-10T09:15:00Z',
  content: `Message ${id}`,
  system: null,
  ...changes,
})

function discussion(messages: Message[]): Discussion {
  return {
    id: 7,
    parentType: 'subject',
    parentId: 5,
    contexts: [
      [
        { id: 1, code: 'LYON', name: 'Usine de Lyon', type: 'site' },
        { id: 5, code: 'S5', name: 'Réglage du tour', type: 'subject' },
      ],
    ],
    messages,
    can: { post: true },
  }
}

function renderPanel(messages: Message[], post?: (request: Request) => Response | Promise<Response>, entry = '/spotv2/subject/5?discussion=open') {
  const server = fakeServer({ [GET]: () => json(discussion(messages)), ...(post ? { [POST]: post } : {}) })
  const rendered = renderRoutes([{ path: 'subject/:subjectId', Component: () => <DiscussionPanel discussionId={7} /> }], entry)
  return { server, ...rendered }
}

const field = () => screen.findByRole('textbox', { name: 'Your message' })

describe('discussion panel', () => {
  it('opens from its button and shows the messages oldest first, with author and date', async () => {
    const { router } = renderPanel([message(1), message(2, { author: { id: 4, name: 'Bruno Petit' } })], undefined, '/spotv2/subject/5')
    await userEvent.click(screen.getByRole('button', { name: 'Discussion' }))
    const panel = await screen.findByRole('dialog', { name: 'Discussion' })
    expect(router.state.location.search).toBe('?discussion=open')
    const items = await within(panel).findAllByRole('listitem')
    expect(items.map((item) => item.textContent)).toEqual([expect.stringContaining('Message 1'), expect.stringContaining('Message 2')])
    expect(items[0]).toHaveTextContent('Alice Martin')
    expect(items[1]).toHaveTextContent('Bruno Petit')
    expect(items[0]).toHaveTextContent('2026-03-10')
    expect(within(panel).getByText('Réglage du tour')).toBeInTheDocument()
    await userEvent.click(within(panel).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(router.state.location.search).toBe(''))
  })

  it('sends the trimmed text with Enter, and empties the field once sent', async () => {
    const bodies: unknown[] = []
    renderPanel([], async (request) => {
      bodies.push(await request.json())
      return json(message(9))
    })
    const input = await field()
    await userEvent.type(input, '  Bonjour à tous  {Enter}')
    await waitFor(() => expect(bodies).toEqual([{ content: 'Bonjour à tous' }]))
    await waitFor(() => expect(input).toHaveValue(''))
  })

  it('makes a new line with Shift+Enter, sending nothing', async () => {
    const { server } = renderPanel([], () => json(message(9)))
    const input = await field()
    await userEvent.type(input, 'Ligne un{Shift>}{Enter}{/Shift}Ligne deux')
    expect(input).toHaveValue('Ligne un\nLigne deux')
    expect(sentRequests(server, POST)).toHaveLength(0)
  })

  it('never sends a blank message', async () => {
    const { server } = renderPanel([], () => json(message(9)))
    const input = await field()
    await userEvent.type(input, '   {Enter}')
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled()
    expect(sentRequests(server, POST)).toHaveLength(0)
    expect(input).toHaveValue('   ')
  })

  it('keeps what was typed when sending fails, and shows the refusal under the field', async () => {
    const { server } = renderPanel([], () => errorBody(422, 'Unprocessable Entity', 'atLeastOneErrorLeft', [{ field: 'content', code: 'string_too_long' }]))
    const input = await field()
    await userEvent.type(input, 'Un long message{Enter}')
    await waitFor(() => expect(sentRequests(server, POST)).toHaveLength(1))
    expect(await screen.findByText('This text is too long')).toBeInTheDocument()
    expect(input).toHaveValue('Un long message')
  })

  it('keeps what was typed when the server fails', async () => {
    renderPanel([], () => errorBody(500, 'Internal Server Error', 'An unexpected server error occurred.'))
    const input = await field()
    await userEvent.type(input, 'Important{Enter}')
    expect(await screen.findByText('An error occured')).toBeInTheDocument()
    expect(input).toHaveValue('Important')
  })

  it("words system messages in the reader's language, and names a gone element as such", async () => {
    renderPanel([
      message(1, { content: '', system: { type: 'criticity', args: { frequency: 2, gravity: 5 }, reachable: true } }),
      message(2, { content: '', system: { type: 'duplicatedFrom', args: { id: 3, name: 'Source' }, reachable: true } }),
      message(3, { content: '', system: { type: 'duplicatedFrom', args: { id: 4, name: 'Partie' }, reachable: false } }),
      message(4, { content: '', author: null, system: { type: 'resourceCreated', args: { name: 'Plan.pdf', resourceType: 'pdf' }, reachable: true } }),
    ])
    const panel = await screen.findByRole('dialog', { name: 'Discussion' })
    expect(await within(panel).findByText('Rated the criticity: frequency 2/5, gravity 5/5')).toBeInTheDocument()
    expect(within(panel).getByRole('link', { name: 'Source' })).toHaveAttribute('href', '/spotv2/subject/3')
    expect(within(panel).getByText('an element that was deleted or that you cannot reach')).toBeInTheDocument()
    expect(within(panel).queryByText('Partie')).not.toBeInTheDocument()
    expect(within(panel).getByText('Added the resource “Plan.pdf”')).toBeInTheDocument()
    expect(within(panel).getAllByRole('listitem')[3]).toHaveTextContent('Spot')
  })

  it("words a mediation's status changes, tracking changes and signatures", async () => {
    renderPanel([
      message(1, { content: '', system: { type: 'statusChanged', args: { status: 'paused' }, reachable: true } }),
      message(2, { content: '', system: { type: 'trackingPeriodsChanged', args: {}, reachable: true } }),
      message(3, { content: '', system: { type: 'mediationSigned', args: {}, reachable: true } }),
    ])
    const panel = await screen.findByRole('dialog', { name: 'Discussion' })
    expect(await within(panel).findByText('Changed the status to Paused')).toBeInTheDocument()
    expect(within(panel).getByText('Changed the tracking periods')).toBeInTheDocument()
    expect(within(panel).getByText('Signed: attendance and agreement with the report')).toBeInTheDocument()
  })

  it('shows nothing for an item without a discussion', () => {
    fakeServer({})
    renderRoutes([{ path: 'subject/:subjectId', Component: () => <DiscussionPanel discussionId={null} /> }], '/spotv2/subject/5')
    expect(screen.queryByRole('button', { name: 'Discussion' })).not.toBeInTheDocument()
  })
})
