import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import i18n from '../../i18n'
import { renderWithClient } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'
import { type StatementRow, StatementLogButton } from './StatementLog'

const LOG = 'GET /backend/api/v2/lms/statements'
const LEARNERS = 'GET /backend/api/v2/lms/items/12/learners'
const UNIT = { id: 12, name: 'Quiz final' }

function row(id: string, verbName: string, changes: Partial<StatementRow> = {}): StatementRow {
  return {
    id,
    stored: '2026-11-20T09:30:00Z',
    timestamp: '2026-11-20T09:30:00Z',
    learnerId: 3,
    learnerName: 'Léa Martin',
    itemId: 12,
    itemName: 'Quiz final',
    courseId: 1,
    courseTitle: 'Consignation',
    verb: `http://adlnet.gov/expapi/verbs/${verbName}`,
    verbName,
    objectId: 'urn:uuid:1',
    defined: true,
    sessionId: 's1',
    launchMode: 'Normal',
    success: null,
    completion: null,
    scaled: null,
    duration: null,
    statement: { id, verb: { id: `http://adlnet.gov/expapi/verbs/${verbName}` } },
    ...changes,
  }
}

const ROWS = [
  row('a', 'passed', { success: true, scaled: 0.9, duration: 'PT2M' }),
  row('b', 'experienced', { defined: false }),
  row('c', 'launched', { launchMode: 'Review', learnerName: 'Marc Petit', learnerId: 4 }),
]

function server(total = 3) {
  return fakeServer({
    [LEARNERS]: () =>
      json([
        { id: 3, name: 'Léa Martin' },
        { id: 4, name: 'Marc Petit' },
      ]),
    [LOG]: (request) => {
      const learner = new URL(request.url).searchParams.get('learnerId')
      const items = learner ? ROWS.filter((r) => String(r.learnerId) === learner) : ROWS
      return json({ items, page: Number(new URL(request.url).searchParams.get('page')), pageSize: 50, total: learner ? items.length : total })
    },
  })
}

afterEach(() => {
  vi.unstubAllGlobals()
  void i18n.changeLanguage('en')
})

describe("a unit's statement log", () => {
  it("lists the unit's statements, for everyone or the learner picked", async () => {
    const fetchMock = server()
    renderWithClient(<StatementLogButton unit={UNIT} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Recorded statements of Quiz final' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Statements of Quiz final' }))
    expect(await dialog.findByText('3 statements')).toBeInTheDocument()
    const items = dialog.getAllByRole('listitem')
    expect(items).toHaveLength(3)
    expect(within(items[0]).getByText('Passed')).toBeInTheDocument()
    expect(within(items[0]).getByText('passed · score 90% · duration PT2M')).toBeInTheDocument()
    expect(within(items[1]).getByText('experienced')).toBeInTheDocument()
    expect(within(items[1]).getByText("The content's own statement (outside cmi5's rules)")).toBeInTheDocument()
    expect(within(items[2]).getByText('Marc Petit')).toBeInTheDocument()
    expect(within(items[2]).getByText('reviewing')).toBeInTheDocument()
    // The statement as sent, under a disclosure.
    expect(within(items[0]).getByText('The statement as sent')).toBeInTheDocument()
    await userEvent.click(dialog.getByRole('combobox', { name: 'Learner' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Marc Petit' }))
    expect(await dialog.findByText('1 statement')).toBeInTheDocument()
    const asked = sentRequests(fetchMock, LOG).map((request) => new URL(request.url).searchParams)
    expect(asked.at(-1)?.get('learnerId')).toBe('4')
    expect(asked.at(-1)?.get('itemId')).toBe('12')
    await userEvent.click(dialog.getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('pages through many statements, in French too', async () => {
    const fetchMock = server(120)
    await i18n.changeLanguage('fr')
    renderWithClient(<StatementLogButton unit={UNIT} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Énoncés enregistrés de Quiz final' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Énoncés de Quiz final' }))
    expect(await dialog.findByText('120 énoncés')).toBeInTheDocument()
    expect(dialog.getByText('Réussi')).toBeInTheDocument()
    await userEvent.click(dialog.getByRole('button', { name: 'Page 3' }))
    await waitFor(() => expect(sentRequests(fetchMock, LOG).at(-1)?.url).toContain('page=3'))
  })
})
