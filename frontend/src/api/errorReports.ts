import { connection } from '../lib/connection'
import { getToken } from '../lib/session'
import { ApiError } from './errors'

/** How a query or mutation tells the global handler which failures it shows itself. */
export interface ErrorHandlingMeta extends Record<string, unknown> {
  /** Statuses the caller presents itself (the login page shows its own 401 and 429). */
  handledStatuses?: number[]
  /** Fields of the form that shows per-field errors; answers whose every field error is one of them are left to the form. */
  formFields?: string[]
}

type Listener = () => void

export interface ErrorReport {
  id: number
  error: Error
}

let reports: readonly ErrorReport[] = []
let lastId = 0
const listeners = new Set<Listener>()

function publish(next: readonly ErrorReport[]): void {
  reports = next
  listeners.forEach((listener) => listener())
}

/** The failures waiting to be shown, oldest first; the error dialog shows the first one. */
export const errorReports = {
  subscribe(listener: Listener): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  current(): readonly ErrorReport[] {
    return reports
  },
  dismiss(): void {
    publish(reports.slice(1))
  },
}

function handledByCaller(error: ApiError, meta: ErrorHandlingMeta | undefined): boolean {
  if (meta?.handledStatuses?.includes(error.status)) return true
  const fields = meta?.formFields
  return !!fields && error.errors.length > 0 && error.errors.every((e) => fields.includes(e.field))
}

/** The one global handler of failed server calls. */
export function reportError(error: Error, meta?: ErrorHandlingMeta): void {
  if (error instanceof ApiError) {
    // The session ended: the user is on the way to Login, which explains itself.
    if (error.status === 401 && getToken() === undefined) return
    if (handledByCaller(error, meta)) return
  }
  // Offline, nothing reaches the server: the shell's offline notice says so once, not a dialog per call.
  else if (connection.offline()) return
  lastId += 1
  publish([...reports, { id: lastId, error }])
}
