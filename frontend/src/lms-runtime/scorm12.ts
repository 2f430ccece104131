/** The SCORM 1.2 runtime (`window.API`), built as a script of its own (vite.config.ts, lmsRuntime). */
import type { Scorm12API as Scorm12ApiType } from 'scorm-again'
import * as scorm12 from 'scorm-again/scorm12'
import { CommitService, readOptions, settings, start } from './runtime'

// scorm-again's module exports the class by name, where its type declarations give a default export.
const { Scorm12API } = scorm12 as unknown as { Scorm12API: typeof Scorm12ApiType }

declare global {
  interface Window {
    API?: Scorm12ApiType
  }
}

const options = readOptions(document.currentScript)
if (options) {
  // 101: general exception (SCORM 1.2 has no commit failure code of its own).
  const commits = new CommitService(101)
  const api = new Scorm12API(settings(options, commits))
  window.API = api
  start(api, options, commits, { initialize: 'LMSInitialize', commit: 'LMSCommit', finish: 'LMSFinish' }, () => api.nav?.event || undefined)
}
