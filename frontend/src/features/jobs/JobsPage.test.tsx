import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { routes } from '../../app/router'
import { storeToken } from '../../lib/session'
import { renderRoutes } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'

const API = '/backend/api/v2'

const job = (id: number, status: string, extra: object = {}) => ({
  id,
  kind: 'reportZip',
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
  summary: null,
  can: { download: false },
  ...extra,
})

function signedIn(jobs: () => object[]) {
  storeToken('token')
  return fakeServer({
    [`GET ${API}/account/whoAmI`]: () =>
      json({ id: 1, login: 'alice', firstName: 'Alice', lastName: 'Martin', externalId: null, displayName: 'Alice Martin', groups: [], permissions: [] }),
    [`GET ${API}/organization/info`]: () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null }),
    [`GET ${API}/account/alerts`]: () => json({ alerts: [], count: 0 }),
    [`GET ${API}/discussion/unread`]: () => json([]),
    [`GET ${API}/jobs`]: () => json({ results: jobs() }),
    [`GET ${API}/jobs/3/result`]: () => new Response('zip', { headers: { 'Content-Disposition': 'attachment; filename="training-paths.zip"' } }),
  })
}

afterEach(() => vi.restoreAllMocks())

describe('the jobs page', () => {
  it('opens from the account menu and shows each job: its progress, its download, its failure', async () => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:1')
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
    const saved: string[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download)
    })
    let running = job(2, 'running', { done: 50, total: 200 })
    const fetchMock = signedIn(() => [
      running,
      job(3, 'succeeded', { done: 2, total: 2, downloadName: 'training-paths.zip', expiresAt: '2026-12-01T10:00:00Z', can: { download: true } }),
      job(1, 'failed', { error: 'jobInterrupted' }),
    ])
    renderRoutes(routes, '/spotv2/forbidden')
    await userEvent.click(await screen.findByRole('button', { name: 'Account' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'My jobs' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'My jobs' })).toBeInTheDocument()
    const [first, second, third] = await screen.findAllByRole('listitem', { name: 'Training paths report (PDF)' })
    expect(within(first).getByText('50 of 200 done')).toBeInTheDocument()
    expect(within(first).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25')
    expect(within(third).getByText('The job was interrupted by a server stop.')).toBeInTheDocument()
    // A job that runs is read again until it ends.
    running = job(2, 'running', { done: 150, total: 200 })
    expect(await within(first).findByText('150 of 200 done')).toBeInTheDocument()
    expect(sentRequests(fetchMock, `GET ${API}/jobs`).length).toBeGreaterThan(1)
    await userEvent.click(within(second).getByRole('button', { name: 'Download training-paths.zip' }))
    await waitFor(() => expect(saved).toEqual(['training-paths.zip']))
  })

  it('says when there is none', async () => {
    signedIn(() => [])
    renderRoutes(routes, '/spotv2/jobs')
    expect(await screen.findByText('You have asked for no file lately.')).toBeInTheDocument()
  })
})
