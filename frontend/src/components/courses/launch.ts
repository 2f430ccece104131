import { api, data } from '../../api/client'

/** The cmi5 launch address of a resource or a quiz (absolute, for a new tab). */
export const launchItem = (itemId: number) => data(api.POST('/backend/api/v2/lms/items/{itemId}/launch', { params: { path: { itemId } } }))

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
