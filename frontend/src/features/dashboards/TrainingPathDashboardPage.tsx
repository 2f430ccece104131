import Box from '@mui/material/Box'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { groupTrainingPathDashboardPath } from '../../lib/paths'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { usePageTitle } from '../../lib/pageTitle'
import { trainingPathDashboardQuery } from './api'
import { Completion } from '../../components/Completion'
import { EmptyText } from './DashboardSection'
import { LevelCount } from './Levels'
import { ROW_LAYOUT } from './rowLayout'

/** Path progress (TrainingPathDashboard, spec 2 §2): every group with its members' completion of their current paths. */
export function TrainingPathDashboardPage() {
  const { t } = useTranslation()
  const { data: dashboard, error } = useQuery(trainingPathDashboardQuery)
  usePageTitle(error ? undefined : t('dashboards.trainingPath.title'))
  if (error) return <LoadFailure error={error} />
  return (
    <>
      <PageHeader title={t('dashboards.trainingPath.title')} />
      {!dashboard ? (
        <Loading />
      ) : dashboard.groups.length === 0 ? (
        <EmptyText>{t('dashboards.trainingPath.noGroup')}</EmptyText>
      ) : (
        <Paper variant="outlined" component="ul" aria-label={t('dashboards.trainingPath.groups')} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {dashboard.groups.map((group) => (
            <Box component="li" key={group.id} sx={ROW_LAYOUT}>
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  <Link component={RouterLink} to={groupTrainingPathDashboardPath(group.id)} underline="hover">
                    {group.name}
                  </Link>
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {t('dashboards.trainingPath.membersWithPaths', { count: group.users, withPaths: group.withPaths })}
                </Typography>
              </Box>
              <Completion of={group} label={t('dashboards.trainingPath.averageOf', { name: group.name })} />
              <Box sx={{ display: 'flex', gap: 0.75, flexWrap: 'wrap' }}>
                <LevelCount level="high" count={group.high} />
                <LevelCount level="medium" count={group.medium} />
                <LevelCount level="low" count={group.low} />
              </Box>
            </Box>
          ))}
        </Paper>
      )}
    </>
  )
}
