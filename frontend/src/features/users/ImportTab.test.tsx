import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithClient } from '../../test/render'
import { fakeServer, json } from '../../test/server'
import { answer, FakeUpload } from '../../test/upload'
import { ImportTab } from './ImportTab'

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

const csv = () => new File(['login\nnina\n'], 'people.csv', { type: 'text/csv' })
const row = (line: number | null, login: string, outcome: string, errors: { column: string; code: string }[] = []) => ({
  line,
  login,
  name: login,
  outcome,
  errors,
})
const report = (applied: boolean, rows: ReturnType<typeof row>[]) => ({
  applied,
  created: rows.filter((r) => r.outcome === 'created').length,
  updated: 0,
  unchanged: 0,
  deactivated: rows.filter((r) => r.outcome === 'deactivated').length,
  refused: rows.filter((r) => r.outcome === 'refused').length,
  rows,
})

describe('the people import', () => {
  it('previews the file, shows a refused row with its column and reason, and offers no apply', async () => {
    answer(200, report(false, [row(2, 'nina', 'created'), row(3, 'paul', 'refused', [{ column: 'email', code: 'invalidEmail' }])]))
    renderWithClient(<ImportTab />)
    await userEvent.upload(screen.getByLabelText('Choose a file'), csv())
    const table = await screen.findByRole('table', { name: "The file's rows" })
    // The refused row comes first, with why.
    const [, first, second] = within(table).getAllByRole('row')
    expect(first).toHaveTextContent('3paulpaulRefusedemail: This is not an e-mail address')
    expect(second).toHaveTextContent('2ninaninaCreated')
    expect(screen.getByRole('status')).toHaveTextContent('Nothing can be imported while a row is refused')
    expect(screen.queryByRole('button', { name: 'Apply the import' })).not.toBeInTheDocument()
    expect(FakeUpload.sent[0].url).toBe('/backend/api/v2/user/import?dryRun=true&deactivateMissing=false')
  })

  it('applies a clean preview with the same file and options', async () => {
    answer(200, report(false, [row(2, 'nina', 'created'), row(null, 'parti', 'deactivated')]))
    renderWithClient(<ImportTab />)
    await userEvent.click(screen.getByRole('checkbox', { name: 'Deactivate the active people the file does not list' }))
    const file = csv()
    await userEvent.upload(screen.getByLabelText('Choose a file'), file)
    expect(await screen.findByRole('status')).toHaveTextContent('Nothing has changed yet. Created: 1, updated: 0, unchanged: 0, deactivated: 1')
    expect(screen.getByRole('row', { name: /parti/ })).toHaveTextContent('Not in the file')
    // Applying is a job: the server answers it at once, and its report comes when it has run.
    const job = (status: string, summary: object | null) => ({
      id: 5,
      kind: 'peopleImport',
      status,
      done: 0,
      total: 0,
      createdAt: '2026-11-30T10:00:00Z',
      startedAt: null,
      finishedAt: null,
      expiresAt: null,
      downloadName: null,
      error: null,
      errors: [],
      summary,
      can: { download: false },
    })
    let state = job('running', null)
    fakeServer({ 'GET /backend/api/v2/jobs/5': () => json(state) })
    answer(202, job('queued', null))
    await userEvent.click(screen.getByRole('button', { name: 'Apply the import' }))
    expect(await screen.findByRole('progressbar', { name: 'Applying the file…' })).toBeInTheDocument()
    state = job('succeeded', { report: report(true, [row(2, 'nina', 'created'), row(null, 'parti', 'deactivated')]) })
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('The import is done.'))
    expect(FakeUpload.sent).toEqual([
      { url: '/backend/api/v2/user/import?dryRun=false&deactivateMissing=true', headers: { 'Content-Type': 'text/csv' }, body: file },
    ])
    expect(screen.queryByRole('button', { name: 'Apply the import' })).not.toBeInTheDocument()
  })

  it('says why a file cannot be read, naming the column', async () => {
    answer(400, { status: 400, reason: 'Bad Request', message: 'unknownColumn', errors: [{ field: 'surnom', code: 'unknownColumn' }] })
    renderWithClient(<ImportTab />)
    await userEvent.upload(screen.getByLabelText('Choose a file'), csv())
    expect(await screen.findByRole('alert')).toHaveTextContent('surnom: Unknown column')
    expect(screen.getByText('people.csv')).toBeInTheDocument()
  })
})
