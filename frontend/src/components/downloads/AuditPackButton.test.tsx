import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { storeToken } from '../../lib/session'
import { renderWithClient } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { AuditPackButton } from './AuditPackButton'
import { sessionCan } from '../../test/session'

const API = '/backend/api/v2'
const PACK = `GET ${API}/reports/auditPack/12`

/** Signed in as someone whom whoAmI's `can` lets download audit packs, or not. */
function signedInAs(downloadAuditPacks: boolean, handlers: Parameters<typeof fakeServer>[0] = {}) {
  storeToken('token')
  return fakeServer({
    [`GET ${API}/account/whoAmI`]: () =>
      json({ id: 7, login: 'groux', displayName: 'Gabriel Roux', groups: [], permissions: [], can: sessionCan({ downloadAuditPacks }) }),
    ...handlers,
  })
}

/** The names of the files the browser was asked to save. */
function watchSaves() {
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:pack')
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
  const saved: string[] = []
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download)
  })
  return saved
}

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('AuditPackButton', () => {
  it('is not shown to whom the server does not let download it', async () => {
    const fetchMock = signedInAs(false)
    renderWithClient(<AuditPackButton userId={12} />)
    await waitFor(() => expect(sentRequests(fetchMock, `GET ${API}/account/whoAmI`)).toHaveLength(1))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByRole('button')).not.toBeInTheDocument()
  })

  it('downloads the pack of that person in the current language, saved under the name the server gave', async () => {
    const saved = watchSaves()
    const fetchMock = signedInAs(true, {
      [PACK]: () => new Response('zip', { headers: { 'Content-Type': 'application/zip', 'Content-Disposition': 'attachment; filename="audit-ines.zip"' } }),
    })
    renderWithClient(<AuditPackButton userId={12} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Audit pack' }))
    await waitFor(() => expect(saved).toEqual(['audit-ines.zip']))
    const [request] = sentRequests(fetchMock, PACK)
    expect(request.headers.get('Accept-Language')).toBe('en')
    expect(request.headers.get('x-access-token')).toBe('token')
    expect(await screen.findByText('Audit pack downloaded')).toBeInTheDocument()
  })

  it('takes the label it is given, and saves nothing when the server refuses', async () => {
    const saved = watchSaves()
    signedInAs(true, { [PACK]: () => errorBody(404, 'Not Found', 'userNotFound') })
    renderWithClient(<AuditPackButton userId={12} label="Learner's audit pack" />)
    await userEvent.click(await screen.findByRole('button', { name: "Learner's audit pack" }))
    expect(await screen.findByRole('dialog')).toBeInTheDocument()
    expect(saved).toEqual([])
    expect(screen.queryByText('Audit pack downloaded')).not.toBeInTheDocument()
  })
})
