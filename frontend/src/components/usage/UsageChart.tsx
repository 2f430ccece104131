import type { SxProps, Theme } from '@mui/material/styles'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense } from 'react'
import { whoAmIQuery } from '../../api/queries'
import { CONTRIBUTIONS_DASHBOARD_PATH } from '../../lib/paths'
import { mayOpen } from '../../lib/routes'
import type { UsageTarget } from './api'

// MUI X Charts is loaded with the chart, only for those who may see it.
const UsageChartPanel = lazy(() => import('./UsageChartPanel'))

/**
 * The usage chart of an item of the map (spec 1 §2, §6): views and contributions per week or month,
 * for those who may open the contributions dashboard, whose call it makes (POST /history/contributions).
 * Others never ask; the server refuses them too.
 */
export function UsageChart({ target, sx }: { target: UsageTarget; sx?: SxProps<Theme> }) {
  // Who the user is, as the shell read it: the chart never asks itself, so it adds no failure of its own.
  const { data: user } = useQuery({ ...whoAmIQuery, enabled: false })
  if (!mayOpen(user, CONTRIBUTIONS_DASHBOARD_PATH)) return null
  return (
    <Suspense fallback={null}>
      <UsageChartPanel target={target} sx={sx} />
    </Suspense>
  )
}
