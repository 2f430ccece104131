import ArrowBack from '@mui/icons-material/ArrowBack'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useParams } from 'react-router'
import { TRAINING_PATH_DASHBOARD_PATH, trainingPathPath } from '../../lib/paths'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { PageHeader } from '../../components/PageHeader'
import { formatDate } from '../../lib/dates'
import { usePageTitle } from '../../lib/pageTitle'
import { idParam } from '../../lib/routeParams'
import { type GroupTrainingPathDashboard, groupTrainingPathDashboardQuery, type UserProgress } from './api'
import { Completion, useCompletionText } from '../../components/Completion'
import { EmptyText } from './DashboardSection'
import { LevelLabel } from './Levels'
import { ROW_LAYOUT } from './rowLayout'

/** Group progress (GroupTrainingPathDashboard, spec 2 §2): the members of one group and their current paths. */
export function GroupTrainingPathDashboardPage() {
  const groupId = idParam(useParams().groupId)
  return groupId === undefined ? <NotFoundPage /> : <LoadedGroup key={groupId} groupId={groupId} />
}

function LoadedGroup({ groupId }: { groupId: number }) {
  const { t } = useTranslation()
  const { data: dashboard, error } = useQuery(groupTrainingPathDashboardQuery(groupId))
  usePageTitle(error ? undefined : dashboard ? t('dashboards.groupTrainingPath.title', { name: dashboard.group.name }) : t('dashboards.trainingPath.title'))
  // Spec 2 §8: an unknown group is NotFound.
  if (error) return <LoadFailure error={error} />
  if (!dashboard) return <Loading />
  return <GroupProgress dashboard={dashboard} />
}

function GroupProgress({ dashboard }: { dashboard: GroupTrainingPathDashboard }) {
  const { t } = useTranslation()
  return (
    <>
      <PageHeader title={t('dashboards.groupTrainingPath.title', { name: dashboard.group.name })} />
      {dashboard.users.length === 0 ? (
        <EmptyText>{t('dashboards.groupTrainingPath.noMember')}</EmptyText>
      ) : (
        <Paper variant="outlined" component="ul" aria-label={t('dashboards.groupTrainingPath.members')} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {dashboard.users.map((user) => (
            <Member key={user.id} user={user} />
          ))}
        </Paper>
      )}
      <Box sx={{ mt: 3 }}>
        <Button component={RouterLink} to={TRAINING_PATH_DASHBOARD_PATH} startIcon={<ArrowBack />} variant="outlined">
          {t('dashboards.groupTrainingPath.back')}
        </Button>
      </Box>
    </>
  )
}

function Member({ user }: { user: UserProgress }) {
  const { t, i18n } = useTranslation()
  const completionText = useCompletionText()
  return (
    <Box component="li" sx={{ ...ROW_LAYOUT, alignItems: { md: 'start' } }} data-level={user.level}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', minWidth: 0 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {user.name}
        </Typography>
        <LevelLabel level={user.level} />
      </Box>
      <Completion of={user} label={t('dashboards.completionOf', { title: user.name })} />
      {user.paths.length === 0 ? (
        <EmptyText>{t('dashboards.groupTrainingPath.noCurrentPath')}</EmptyText>
      ) : (
        <Box component="ul" aria-label={t('dashboards.groupTrainingPath.pathsOf', { name: user.name })} sx={{ m: 0, p: 0, listStyle: 'none' }}>
          {user.paths.map((path) => (
            <Box component="li" key={path.id} sx={{ mb: 0.5 }}>
              <Link component={RouterLink} to={trainingPathPath(path.id)} underline="hover" variant="body2">
                {path.title}
              </Link>{' '}
              <Typography component="span" variant="caption" color="text.secondary">
                {t('dashboards.pathSummary', {
                  status: t(`trainingPaths.status.${path.status}`),
                  stop: formatDate(path.stopDate, i18n.language),
                  completion: completionText(path.completion),
                })}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  )
}
