import type { ErrorHandlingMeta } from '../api/errorReports'
import { isApiError } from '../api/errors'

/** Meta of the queries of pages that show a failed load themselves (Forbidden, NotFound) rather than in the error dialog. */
export const LOAD_FAILURES_SHOWN_BY_PAGE: ErrorHandlingMeta = { handledStatuses: [400, 403, 404, 422] }

/** The item exists but the user may not see it: the page shows Forbidden rather than NotFound. */
export const isHiddenItem = (error: Error) => isApiError(error, 403)
