import { useQuery } from '@tanstack/react-query'
import { Navigate, Outlet } from 'react-router'
import { whoAmIQuery } from '../api/queries'
import { Loading } from '../components/Loading'
import type { PermissionCheck } from '../lib/permissions'
import { FORBIDDEN_PATH } from './paths'

/** Renders the child routes for users passing the check; the others go to Forbidden. */
export function RequirePermission({ check }: { check: PermissionCheck }) {
  const { data: user, isError } = useQuery(whoAmIQuery)
  if (isError) return null
  if (!user) return <Loading />
  return check(user) ? <Outlet /> : <Navigate to={FORBIDDEN_PATH} replace />
}
