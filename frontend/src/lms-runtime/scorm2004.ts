/** The SCORM 2004 runtime (`window.API_1484_11`), built as a script of its own (vite.config.ts, lmsRuntime). */
import type { Scorm2004API as Scorm2004ApiType } from 'scorm-again'
import * as scorm2004 from 'scorm-again/scorm2004'
import { CommitService, readOptions, settings, start } from './runtime'

// scorm-again's module exports the class by name, where its type declarations give a default export.
const { Scorm2004API } = scorm2004 as unknown as { Scorm2004API: typeof Scorm2004ApiType }

declare global {
  interface Window {
    API_1484_11?: Scorm2004ApiType
  }
}

const options = readOptions(document.currentScript)
if (options) {
  // 391: general commit failure.
  const commits = new CommitService(391)
  const api = new Scorm2004API(settings(options, commits))
  window.API_1484_11 = api
  start(api, options, commits, { initialize: 'Initialize', commit: 'Commit', finish: 'Terminate' }, () => api.adl?.nav?.request || undefined)
}
