import { Navigate } from 'react-router'
import { FORBIDDEN_PATH } from '../lib/paths'
import { isHiddenItem } from '../lib/loadFailures'
import { NotFoundPage } from './NotFoundPage'

/** A page whose item could not be loaded: Forbidden when it exists but is hidden, NotFound otherwise. */
export function LoadFailure({ error }: { error: Error }) {
  if (isHiddenItem(error)) return <Navigate to={FORBIDDEN_PATH} replace />
  return <NotFoundPage />
}
