import { Navigate } from 'react-router'
import { isApiError } from '../../api/errors'
import { NotFoundPage } from '../../app/pages/NotFoundPage'

/** A page whose item could not be loaded: Forbidden when it exists but is hidden, NotFound otherwise. */
export function LoadFailure({ error }: { error: Error }) {
  if (isApiError(error, 403)) return <Navigate to="/forbidden" replace />
  return <NotFoundPage />
}
