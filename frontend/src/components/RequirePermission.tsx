import { useQuery } from '@tanstack/react-query'
import { Navigate, Outlet, useLocation } from 'react-router'
import { whoAmIQuery } from '../api/queries'
import { FORBIDDEN_PATH } from '../lib/paths'
import { pagePermission } from '../lib/routes'
import { Loading } from './Loading'

/**
 * Renders the child routes for users who may open the page at the current address (its entry in
 * `lib/routes.ts`); the others go to Forbidden.
 */
export function RequirePermission() {
  const { pathname } = useLocation()
  const { data: user, isError } = useQuery(whoAmIQuery)
  if (isError) return null
  if (!user) return <Loading />
  return pagePermission(pathname)(user) ? <Outlet /> : <Navigate to={FORBIDDEN_PATH} replace />
}
