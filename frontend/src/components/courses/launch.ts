import { api, data } from '../../api/client'
import type { components } from '../../api/schema'
import { lmsPlayerPath } from '../../lib/paths'
import { APP_BASE } from '../../lib/session'

type LaunchOut = components['schemas']['LaunchOut']

type LaunchMode = components['schemas']['LmsResult']['launchMode']

/**
 * The launch of a resource or a quiz: its address (absolute), its standard and its course. `mode`, as a
 * module element asks for it: Browse or Review open it recording nothing; Normal lets the server decide.
 */
export const launchItem = ({ itemId, mode = 'Normal' }: { itemId: number; mode?: LaunchMode }) =>
  data(api.POST('/backend/api/v2/lms/items/{itemId}/launch', { params: { path: { itemId } }, body: mode === 'Normal' ? undefined : { mode } }))

/**
 * Where a launched unit opens in a tab of its own: a cmi5 unit at its launch address, a SCORM one in
 * the course's player (which gives it its contents, its runtime and the way back to Spot), in the mode
 * the launch asked for.
 */
export function launchedAddress(launched: LaunchOut, itemId: number, mode: LaunchMode = 'Normal'): string {
  if (launched.standard === 'cmi5') return launched.url
  return `${window.location.origin}${APP_BASE}${lmsPlayerPath(launched.courseId, itemId, mode === 'Normal' ? undefined : mode)}`
}

/**
 * The new tab is opened on the click itself, blank, and sent to the launch address once the server
 * gives it: opened later, in the answer's callback, it would be taken for a pop-up and blocked.
 * It is cut from this page (no opener), as `noopener` would do.
 */
export function openBlankTab(): Window | null {
  const tab = window.open('', '_blank')
  if (tab) tab.opener = null
  return tab
}
