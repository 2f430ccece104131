import { afterEach, describe, expect, it, vi } from 'vitest'
import { closeSession, getToken, openSession, setSessionExpiredHandler } from '../lib/session'
import { api, data } from './client'
import { ApiError } from './errors'
import { withProgress } from './upload'

/** XMLHttpRequest as an upload uses it: progress while sending, then the answer set in `answer`. */
class FakeUpload {
  static sent: { method: string; url: string; headers: Record<string, string>; body: unknown }[] = []
  static answer = { status: 200, body: '{}' }
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  status = 0
  statusText = ''
  responseText = ''
  private method = ''
  private url = ''
  private headers: Record<string, string> = {}

  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value
  }
  send(body: unknown) {
    FakeUpload.sent.push({ method: this.method, url: this.url, headers: this.headers, body })
    this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 4 })
    setTimeout(() => {
      this.status = FakeUpload.answer.status
      this.responseText = FakeUpload.answer.body
      this.onload?.()
    })
  }
}

function answer(status: number, body: unknown) {
  FakeUpload.sent = []
  FakeUpload.answer = { status, body: JSON.stringify(body) }
  vi.stubGlobal('XMLHttpRequest', FakeUpload)
}

const upload = (file: Blob, onProgress = vi.fn()) =>
  data(api.POST('/backend/api/v2/lms/courses', { headers: { 'Content-Type': 'application/zip' }, ...withProgress(file, onProgress) }))

afterEach(() => {
  vi.unstubAllGlobals()
  setSessionExpiredHandler(undefined)
  closeSession()
})

describe('an upload with progress through the API client', () => {
  it('sends the file itself with the session header and gives the answer and the progress', async () => {
    openSession('abc')
    answer(200, { id: 9 })
    const file = new Blob(['PK'])
    const onProgress = vi.fn()
    expect(await upload(file, onProgress)).toEqual({ id: 9 })
    expect(onProgress).toHaveBeenCalledWith(0.25)
    expect(FakeUpload.sent).toEqual([
      { method: 'POST', url: '/backend/api/v2/lms/courses', headers: { 'Content-Type': 'application/zip', 'X-Access-Token': 'abc' }, body: file },
    ])
  })

  it("fails with the server's error, and a refused session ends as on any call", async () => {
    const expired = vi.fn()
    setSessionExpiredHandler(expired)
    openSession('abc')
    answer(401, { status: 401, reason: 'Unauthorized', message: 'invalidToken', errors: [] })
    const failure = await upload(new Blob(['PK'])).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ApiError)
    expect((failure as ApiError).message).toBe('invalidToken')
    expect(getToken()).toBeUndefined()
    expect(expired).toHaveBeenCalled()
  })
})
