import { api, data } from '../../api/client'
import type { components } from '../../api/schema'
import { lmsPlayerPath } from '../../lib/paths'
import { APP_BASE } from '../../lib/session'

type LaunchOut = components['schemas']['LaunchOut']

/** The launch of a resource or a quiz: its address (absolute), its standard and its course. */
export const launchItem = (itemId: number) => data(api.POST('/backend/api/v2/lms/items/{itemId}/launch', { params: { path: { itemId } } }))

/**
 * Where a launched unit opens in a tab of its own: a cmi5 unit at its launch address, a SCORM one in
 * the course's player (which gives it its contents, its runtime and the way back to Spot).
 */
export function launchedAddress(launched: LaunchOut, itemId: number): string {
  return launched.standard === 'cmi5' ? launched.url : `${window.location.origin}${APP_BASE}${lmsPlayerPath(launched.courseId, itemId)}`
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
