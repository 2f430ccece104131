import { afterEach, describe, expect, it, vi } from 'vitest'
import { CommitService, leave, loadCmi, readAnswer, readOptions, start, tellPlayer } from './runtime'

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

  it('commits by a synchronous JSON request, and in the background while the page goes away, until settled', async () => {
    const sent = fakeRequest({ status: 200, text: '{"result": true}' })
    const service = new CommitService(101)
    expect(service.processHttpRequest('/api/lms/scorm/k/commit', { cmi: { core: {} } })).toEqual({ result: 'true', errorCode: 0 })
    expect(sent).toEqual([{ method: 'POST', url: '/api/lms/scorm/k/commit', headers: { 'Content-Type': 'application/json' }, body: '{"cmi":{"core":{}}}' }])

    fakeRequest('refused')
    let answer: (value: Response) => void = () => undefined
    const background = vi.fn<typeof fetch>(() => new Promise<Response>((resolve) => (answer = resolve)))
    vi.stubGlobal('fetch', background)
    expect(service.processHttpRequest('/api/lms/scorm/k/commit', { cmi: {}, terminate: true })).toEqual({ result: 'true', errorCode: 0 })
    expect(background).toHaveBeenCalledWith('/api/lms/scorm/k/commit', {
      method: 'POST',
      body: '{"cmi":{},"terminate":true}',
      keepalive: true,
      headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
    })
    let settled = false
    void service.settled().then(() => (settled = true))
    await Promise.resolve()
    expect(settled).toBe(false)
    answer(new Response('{"result": true}'))
    await vi.waitFor(() => expect(settled).toBe(true))
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
    start(api, options, new CommitService(391), { initialize: 'Initialize', commit: 'Commit', finish: 'Terminate' }, () => 'continue')
    expect(api.loadFromJSON).toHaveBeenCalledWith({ learner_id: '7' })
    listeners.get('Initialize')?.()
    listeners.get('Terminate')?.()
    expect(parent.postMessage.mock.calls).toEqual([
      [{ source: 'spot-scorm', event: 'initialized' }, 'http://127.0.0.1:8000'],
      [{ source: 'spot-scorm', event: 'terminated', navRequest: 'continue' }, 'http://127.0.0.1:8000'],
    ])
    fakeRequest({ status: 404, text: '' })
    start(api, options, new CommitService(391), { initialize: 'Initialize', commit: 'Commit', finish: 'Terminate' }, () => undefined)
    expect(parent.postMessage).toHaveBeenLastCalledWith({ source: 'spot-scorm', event: 'unavailable' }, 'http://127.0.0.1:8000')
  })

  it("lets the SCO go when the player asks: its frame removed, then 'left' once its commits are answered", async () => {
    const parent = { postMessage: vi.fn() }
    vi.spyOn(window, 'parent', 'get').mockReturnValue(parent as unknown as Window)
    const sco = document.createElement('iframe')
    sco.dataset.sco = ''
    document.body.append(sco)
    const commits = new CommitService(391)
    let answer: () => void = () => undefined
    vi.spyOn(commits, 'settled').mockReturnValue(new Promise<void>((resolve) => (answer = resolve)))
    leave('http://127.0.0.1:8000', commits)
    expect(document.querySelector('iframe[data-sco]')).toBeNull()
    await Promise.resolve()
    expect(parent.postMessage).not.toHaveBeenCalled()
    answer()
    await vi.waitFor(() => expect(parent.postMessage).toHaveBeenCalledWith({ source: 'spot-scorm', event: 'left' }, 'http://127.0.0.1:8000'))
  })

  it("hears the player's request to leave from the document above, on Spot's origin only", async () => {
    fakeRequest({ status: 200, text: '{"version": "2004", "cmi": {}}' })
    const parent = { postMessage: vi.fn() }
    vi.spyOn(window, 'parent', 'get').mockReturnValue(parent as unknown as Window)
    const api = { loadFromJSON: vi.fn(), on: vi.fn() }
    start(api, { api: '/api/lms/scorm/k', player: 'http://127.0.0.1:8000' }, new CommitService(391), { initialize: 'Initialize', commit: 'Commit', finish: 'Terminate' }, () => undefined)
    const request = { source: 'spot-player', event: 'leave' }
    window.dispatchEvent(new MessageEvent('message', { data: request, origin: 'http://elsewhere.test', source: parent as unknown as Window }))
    window.dispatchEvent(new MessageEvent('message', { data: request, origin: 'http://127.0.0.1:8000', source: window }))
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(parent.postMessage).not.toHaveBeenCalled()
    window.dispatchEvent(new MessageEvent('message', { data: request, origin: 'http://127.0.0.1:8000', source: parent as unknown as Window }))
    await vi.waitFor(() => expect(parent.postMessage).toHaveBeenCalledWith({ source: 'spot-scorm', event: 'left' }, 'http://127.0.0.1:8000'))
  })

  it('tells nobody when the SCO runs on its own', () => {
    const post = vi.spyOn(window, 'postMessage')
    tellPlayer('http://127.0.0.1:8000', { event: 'initialized' })
    expect(post).not.toHaveBeenCalled()
  })
})
