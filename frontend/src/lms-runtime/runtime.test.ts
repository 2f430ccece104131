import { afterEach, describe, expect, it, vi } from 'vitest'
import { CommitService, loadCmi, readAnswer, readOptions, start, tellPlayer } from './runtime'

/** A synchronous XMLHttpRequest answering `status`/`text`, or throwing on send (a page going away). */
function fakeRequest(answer: { status: number; text: string } | 'refused') {
  const sent: { method: string; url: string; body?: unknown; headers: Record<string, string> }[] = []
  class FakeRequest {
    status = 0
    responseText = ''
    private call = { method: '', url: '', headers: {} as Record<string, string>, body: undefined as unknown }
    open(method: string, url: string, async: boolean) {
      expect(async).toBe(false)
      this.call = { ...this.call, method, url }
    }
    setRequestHeader(name: string, value: string) {
      this.call.headers[name] = value
    }
    send(body?: unknown) {
      if (answer === 'refused') throw new DOMException('Synchronous XHR in page dismissal', 'NetworkError')
      sent.push({ ...this.call, body })
      this.status = answer.status
      this.responseText = answer.text
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeRequest)
  return sent
}

afterEach(() => vi.unstubAllGlobals())

describe('the SCORM runtime bootstrap', () => {
  it('reads the commit answer', () => {
    expect(readAnswer(200, '{"result": true, "errorCode": 0}', 101)).toEqual({ result: 'true', errorCode: 0 })
    expect(readAnswer(200, '{"result": false, "errorCode": 391}', 101)).toEqual({ result: 'false', errorCode: 391 })
    expect(readAnswer(403, '{"message": "closed"}', 391)).toEqual({ result: 'false', errorCode: 391 })
    expect(readAnswer(200, 'not json', 101)).toEqual({ result: 'false', errorCode: 101 })
  })

  it('commits by a synchronous JSON request, and by a text beacon while the page goes away', () => {
    const sent = fakeRequest({ status: 200, text: '{"result": true}' })
    const service = new CommitService(101)
    expect(service.processHttpRequest('/api/lms/scorm/k/commit', { cmi: { core: {} } })).toEqual({ result: 'true', errorCode: 0 })
    expect(sent).toEqual([{ method: 'POST', url: '/api/lms/scorm/k/commit', headers: { 'Content-Type': 'application/json' }, body: '{"cmi":{"core":{}}}' }])

    fakeRequest('refused')
    const beacon = vi.fn(() => true)
    vi.stubGlobal('navigator', { sendBeacon: beacon })
    expect(service.processHttpRequest('/api/lms/scorm/k/commit', { cmi: {}, terminate: true })).toEqual({ result: 'true', errorCode: 0 })
    const [url, blob] = beacon.mock.calls[0] as unknown as [string, Blob]
    expect(url).toBe('/api/lms/scorm/k/commit')
    expect(blob.type).toBe('text/plain;charset=utf-8')
  })

  it('loads the CMI before the content starts, and says when the launch is over', () => {
    fakeRequest({ status: 200, text: '{"version": "1.2", "cmi": {"core": {"student_id": "7"}}}' })
    expect(loadCmi('/api/lms/scorm/k')).toEqual({ core: { student_id: '7' } })
    fakeRequest({ status: 404, text: '{}' })
    expect(loadCmi('/api/lms/scorm/k')).toBeUndefined()
  })

  it('reads its addresses from its script tag', () => {
    const script = document.createElement('script')
    expect(readOptions(script)).toBeUndefined()
    script.dataset.api = '/api/lms/scorm/k'
    script.dataset.player = 'http://127.0.0.1:8000'
    expect(readOptions(script)).toEqual({ api: '/api/lms/scorm/k', player: 'http://127.0.0.1:8000' })
  })

  it('tells the player of the calls, with the navigation request at the end', () => {
    fakeRequest({ status: 200, text: '{"version": "2004", "cmi": {"learner_id": "7"}}' })
    const parent = { postMessage: vi.fn() }
    vi.spyOn(window, 'parent', 'get').mockReturnValue(parent as unknown as Window)
    const listeners = new Map<string, () => void>()
    const api = { loadFromJSON: vi.fn(), on: (name: string, callback: () => void) => listeners.set(name, callback) }
    const options = { api: '/api/lms/scorm/k', player: 'http://127.0.0.1:8000' }
    start(api, options, { initialize: 'Initialize', commit: 'Commit', finish: 'Terminate' }, () => 'continue')
    expect(api.loadFromJSON).toHaveBeenCalledWith({ learner_id: '7' })
    listeners.get('Initialize')?.()
    listeners.get('Terminate')?.()
    expect(parent.postMessage.mock.calls).toEqual([
      [{ source: 'spot-scorm', event: 'initialized' }, 'http://127.0.0.1:8000'],
      [{ source: 'spot-scorm', event: 'terminated', navRequest: 'continue' }, 'http://127.0.0.1:8000'],
    ])
    fakeRequest({ status: 404, text: '' })
    start(api, options, { initialize: 'Initialize', commit: 'Commit', finish: 'Terminate' }, () => undefined)
    expect(parent.postMessage).toHaveBeenLastCalledWith({ source: 'spot-scorm', event: 'unavailable' }, 'http://127.0.0.1:8000')
  })

  it('tells nobody when the SCO runs on its own', () => {
    const post = vi.spyOn(window, 'postMessage')
    tellPlayer('http://127.0.0.1:8000', { event: 'initialized' })
    expect(post).not.toHaveBeenCalled()
  })
})
