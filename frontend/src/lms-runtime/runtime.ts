/**
 * The SCORM runtime a launched SCO talks to (docs/learning-platform.md, "SCORM"): scorm-again's API,
 * created as `window.API` (SCORM 1.2) or `window.API_1484_11` (SCORM 2004) in the document that loads
 * this script, before any of the content's own scripts run. The server writes the script tag
 * (`lms/scorm/player.py`) in the player frame it serves around the SCO, on the content origin, or, where
 * there is no content origin, at the start of the SCO's own `<head>`.
 *
 * The tag carries `data-api`, the launch's runtime address (`…/lms/scorm/{key}`), and `data-player`,
 * Spot's origin. The CMI is read from `{data-api}/cmi` synchronously, so that it is there when the
 * content calls Initialize from its load handler; commits go to `{data-api}/commit` as
 * `{"cmi": {...}, "terminate": true?}`. The player page (Spot's origin) is told by `postMessage` when the
 * SCO initializes, commits and terminates, with the navigation request it made.
 *
 * When the learner opens another unit from the player, the player first asks the runtime to let the SCO
 * go (`{"source": "spot-player", "event": "leave"}`): the frame page removes the SCO's frame, whose unload
 * handler usually calls Terminate, and answers `left` once every commit has reached the server, so that
 * the statuses the player reads next include this unit's.
 */

/** What the player page receives from the runtime (features/lms/player reads it). */
export type RuntimeMessage = {
  source: 'spot-scorm'
  event: 'initialized' | 'committed' | 'terminated' | 'unavailable' | 'left'
  /** SCORM 2004 `adl.nav.request` (`continue`, `previous`, `{target=ID}choice`, `exit`, `suspendAll`…), SCORM 1.2 `nav.event`. */
  navRequest?: string
}

/** The part of scorm-again's API the bootstrap uses, common to both versions. */
export type RuntimeApi = {
  loadFromJSON(json: Record<string, unknown>, CMIElement?: string): void
  on(listenerName: string, callback: (...args: unknown[]) => void): void
}

type Result = { result: string; errorCode: number }

/** The commit answer of `POST /lms/scorm/{key}/commit`: `{"result": true, "errorCode": 0}`. */
export function readAnswer(status: number, text: string, failureCode: number): Result {
  if (status < 200 || status >= 300) return { result: 'false', errorCode: failureCode }
  try {
    const answer = JSON.parse(text) as { result?: unknown; errorCode?: unknown }
    const ok = answer.result === true || answer.result === 'true'
    return { result: ok ? 'true' : 'false', errorCode: ok ? 0 : Number(answer.errorCode) || failureCode }
  } catch {
    return { result: 'false', errorCode: failureCode }
  }
}

/**
 * Commits by synchronous request, as SCORM wants (the content reads the commit's result), and by a
 * `keepalive` request when the browser no longer allows one: while the page goes away (the learner left
 * the SCO or closed the player), when content usually calls Finish/Terminate. That request goes as
 * text/plain, which the server reads as JSON too (as a beacon would: nothing to preflight), and
 * `settled()` waits for it.
 */
export class CommitService {
  private readonly failureCode: number
  private readonly pending = new Set<Promise<unknown>>()

  constructor(failureCode: number) {
    this.failureCode = failureCode
  }

  /** Once every commit sent in the background has been answered (or failed). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending])
  }

  processHttpRequest(url: string, params: unknown): Result {
    const body = JSON.stringify(params)
    try {
      const request = new XMLHttpRequest()
      request.open('POST', url, false)
      request.setRequestHeader('Content-Type', 'application/json')
      request.send(body)
      return readAnswer(request.status, request.responseText, this.failureCode)
    } catch {
      const sent = fetch(url, { method: 'POST', body, keepalive: true, headers: { 'Content-Type': 'text/plain;charset=UTF-8' } })
      this.pending.add(sent)
      void sent.catch(() => undefined).finally(() => this.pending.delete(sent))
      return { result: 'true', errorCode: 0 }
    }
  }

  updateSettings(): void {}
}

/** The launch's CMI, `{"version": "1.2"|"2004", "cmi": {...}}`, read before the content starts; undefined when the launch is unknown or over. */
export function loadCmi(api: string): Record<string, unknown> | undefined {
  try {
    const request = new XMLHttpRequest()
    request.open('GET', `${api}/cmi`, false)
    request.send()
    if (request.status !== 200) return undefined
    const answer = JSON.parse(request.responseText) as { cmi?: Record<string, unknown> }
    return answer.cmi ?? {}
  } catch {
    return undefined
  }
}

export type Options = { api: string; player: string }

/** The addresses written by the server on the script tag. */
export function readOptions(script: HTMLOrSVGScriptElement | null): Options | undefined {
  const api = script?.dataset.api
  const player = script?.dataset.player
  return api && player ? { api, player } : undefined
}

/** Tells the player page, when there is one above this document (a SCO opened on its own has none). */
export function tellPlayer(player: string, message: Omit<RuntimeMessage, 'source'>): void {
  if (window.parent === window) return
  window.parent.postMessage({ source: 'spot-scorm', ...message } satisfies RuntimeMessage, player)
}

/** The settings shared by both versions: commits to the launch's address, every 30 s after a change and at the end. */
export function settings(options: Options, commits: CommitService) {
  return {
    lmsCommitUrl: `${options.api}/commit`,
    autocommit: true,
    autocommitSeconds: 30,
    dataCommitFormat: 'json' as const,
    sendFullCommit: true,
    terminateCommitPayloadField: 'terminate',
    httpService: commits,
    logLevel: 4 as const,
  }
}

/** The SCO's frame in the frame page (`lms/scorm/player.py`); none where the runtime is in the SCO's own document. */
export const SCO_FRAME = 'iframe[data-sco]'

/**
 * Lets the SCO go when the player asks: removing its frame runs its unload handler (where content
 * calls Terminate) there and then; the player is told `left` once the commits are answered. Where the
 * runtime is in the SCO's own document, `left` at once: the player removes the frame.
 */
export function leave(player: string, commits: CommitService): void {
  document.querySelector(SCO_FRAME)?.remove()
  void commits.settled().then(() => tellPlayer(player, { event: 'left' }))
}

/** Whether a message is the player's request to let the SCO go. */
const isLeave = (data: unknown) => typeof data === 'object' && data !== null && (data as Record<string, unknown>).source === 'spot-player' && (data as Record<string, unknown>).event === 'leave'

/**
 * Loads the CMI into the API, and reports the SCO's calls to the player: the names of the calls differ
 * by version (LMSInitialize/Initialize…), the navigation request is read at the end. The player's
 * request to leave is heard from the document above, on Spot's origin only.
 */
export function start(
  api: RuntimeApi,
  options: Options,
  commits: CommitService,
  calls: { initialize: string; commit: string; finish: string },
  navRequest: () => string | undefined,
): void {
  window.addEventListener('message', (event) => {
    if (event.source === window.parent && event.origin === options.player && isLeave(event.data)) leave(options.player, commits)
  })
  const cmi = loadCmi(options.api)
  if (cmi === undefined) {
    tellPlayer(options.player, { event: 'unavailable' })
    return
  }
  api.loadFromJSON(cmi)
  api.on(calls.initialize, () => tellPlayer(options.player, { event: 'initialized' }))
  api.on(calls.commit, () => tellPlayer(options.player, { event: 'committed' }))
  api.on(calls.finish, () => {
    const request = navRequest()
    tellPlayer(options.player, { event: 'terminated', ...(request && request !== '_none_' ? { navRequest: request } : {}) })
  })
}
