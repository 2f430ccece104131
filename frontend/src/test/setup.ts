import '@testing-library/jest-dom/vitest'
import { __unsafe_useEmotionCache, type EmotionCache } from '@emotion/react'
import { cleanup, configure, render } from '@testing-library/react'
import { createElement } from 'react'
import Cookies from 'js-cookie'
import { afterEach, beforeEach, vi } from 'vitest'
import { errorReports } from '../api/errorReports'
import { connection } from '../lib/connection'
import { setOrganizationTimeZone } from '../lib/dates'
import i18n, { LANGUAGES } from '../i18n'
import { catalogue } from './catalogues'
import { stopQueryClients } from './render'

// No test may depend on the machine's speed: a loaded machine (CI runs the whole suite on 2 cores,
// beside other work) may take many seconds to render a form and its data. findBy and waitFor wait up
// to a minute, which a passing test never waits; only a failing one takes that long to say so. No
// test sets a shorter wait of its own.
configure({ asyncUtilTimeout: 60_000 })

// Every text of every area, in both languages: components are tested outside their area's routes,
// which read the area's texts in the application (src/i18n/areas.test.ts checks that they do).
for (const language of LANGUAGES) i18n.addResourceBundle(language, 'translation', catalogue(language), true, true)

// The files of a worker share one module graph (vite.config.ts: isolate false): what a file left in a
// module's state (a stubbed global, the organisation's zone) is put back before the next file's tests.
// jsdom has no canvas: getContext answers null, as jsdom does, without its "not implemented" notice on
// the console (axe-core's colour checks in the mind map's and diagram's tests ask for one).
HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext

// The styles the worker's earlier files put in the document go: MUI's (emotion's cache, one module of
// the worker) stayed, and jsdom matches each of them against each element whose style a query reads
// (about 3,600 rules by a worker's last file, against at most about 900 for one file's own).
let emotion: EmotionCache | null = null
render(createElement(() => ((emotion = __unsafe_useEmotionCache()), null)))
cleanup()
if (emotion) {
  const cache: EmotionCache = emotion
  cache.sheet.flush()
  cache.inserted = {}
}

vi.unstubAllGlobals()
vi.unstubAllEnvs()
setOrganizationTimeZone(undefined)

beforeEach(async () => {
  await i18n.changeLanguage('en')
})

afterEach(async () => {
  await stopQueryClients()
  cleanup()
  Cookies.remove('userToken', { path: '/spotv2' })
  localStorage.clear()
  while (errorReports.current().length > 0) errorReports.dismiss()
  // A test whose fake server threw (no answer) leaves the server out of reach: the next one starts in reach.
  connection.reached()
})
