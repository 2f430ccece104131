import Add from '@mui/icons-material/Add'
import ArrowBack from '@mui/icons-material/ArrowBack'
import BadgeOutlined from '@mui/icons-material/BadgeOutlined'
import VerifiedUser from '@mui/icons-material/VerifiedUser'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useQueries, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useParams } from 'react-router'
import { activitiesQuery, subActivitiesQuery } from '../../api/mapping'
import { FUNCTIONS_PATH, newSubjectAtPath, subjectPath, subjectsAtPath } from '../../app/paths'
import { ResourceGallery } from '../../components/gallery/ResourceGallery'
import { DiscussionPanel } from '../../components/discussion/DiscussionPanel'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { UsageChart } from '../../components/usage/UsageChart'
import { usePageTitle } from '../../lib/pageTitle'
import { idParam } from '../../lib/routeParams'
import type { FunctionView, SubjectSummary } from './api'
import { functionViewQuery } from './api'
import { ContextLinks } from './ContextLinks'
import { LEVEL_COLOURS, levelTextKey } from './criticity'
import { useLifetimeText } from './lifetime'
import { NodeStatusChip } from './NodeStatusChip'
import { StepMarkers } from './StepMarkers'

export function FunctionPage() {
  const functionId = idParam(useParams().functionId)
  return functionId === undefined ? <NotFoundPage /> : <LoadedFunction key={functionId} functionId={functionId} />
}

function LoadedFunction({ functionId }: { functionId: number }) {
  const { t } = useTranslation()
  const { data: view, error } = useQuery(functionViewQuery(functionId))
  usePageTitle(error ? undefined : t('pageTitles.function'))
  if (error) return <LoadFailure error={error} />
  if (!view) return <Loading />
  return <FunctionTables view={view} />
}

/** Names of the cartography's sub-activities, to say where in an activity each subject sits. */
function useSubActivityNames(cartographyId: number): Map<number, string> {
  const { data: activities = [] } = useQuery(activitiesQuery(cartographyId))
  const nested = useQueries({
    queries: activities.filter((activity) => activity.hasSubActivities).map((activity) => subActivitiesQuery(activity.id)),
  })
  return new Map(nested.flatMap((query) => query.data ?? []).map((activity) => [activity.id, activity.name]))
}

function FunctionTables({ view }: { view: FunctionView }) {
  const { t } = useTranslation()
  const subActivityNames = useSubActivityNames(view.cartographyId)
  const total = view.activities.reduce((sum, activity) => sum + activity.subjects.length, 0)

  return (
    <>
      <ContextLinks path={view.context} />
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mt: 0.5, mb: 3, gap: 2, flexWrap: 'wrap' }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <BadgeOutlined color="primary" />
          <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
            {view.name}
          </Typography>
          <Chip size="small" variant="outlined" label={t('subjects.function.subjectCount', { count: total })} />
          <DiscussionPanel discussionId={view.discussionId} />
        </Stack>
        <Button component={RouterLink} to={FUNCTIONS_PATH} startIcon={<ArrowBack />}>
          {t('subjects.function.backToList')}
        </Button>
      </Stack>
      <ResourceGallery parentType="function" parentId={view.id} />
      <Stack spacing={3}>
        {view.activities.map((activity) => (
          <Paper key={activity.id} variant="outlined" component="section" aria-labelledby={`activity-${activity.id}`}>
            <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1.25, gap: 2 }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline' }}>
                <Link
                  id={`activity-${activity.id}`}
                  component={RouterLink}
                  to={subjectsAtPath(view.id, activity.id)}
                  variant="subtitle1"
                  underline="hover"
                  sx={{ fontWeight: 600 }}
                >
                  {activity.name}
                </Link>
                <Typography variant="body2" color="text.secondary">
                  {activity.subjects.length}
                </Typography>
              </Stack>
              {view.can.create && (
                <Button
                  size="small"
                  startIcon={<Add />}
                  component={RouterLink}
                  to={newSubjectAtPath(view.cartographyId, view.id, activity.id)}
                  aria-label={t('subjects.function.addIn', { activity: activity.name })}
                >
                  {t('subjects.function.add')}
                </Button>
              )}
            </Stack>
            {activity.subjects.length === 0 ? (
              <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 2 }}>
                {t('subjects.function.noSubject')}
              </Typography>
            ) : (
              <SubjectTable subjects={activity.subjects} activityId={activity.id} subActivityNames={subActivityNames} />
            )}
          </Paper>
        ))}
      </Stack>
      <UsageChart target={{ itemIds: [view.id] }} sx={{ mt: 3 }} />
    </>
  )
}

interface SubjectTableProps {
  subjects: SubjectSummary[]
  activityId: number
  subActivityNames: Map<number, string>
}

function SubjectTable({ subjects, activityId, subActivityNames }: SubjectTableProps) {
  const { t } = useTranslation()
  const lifetime = useLifetimeText()
  return (
    <TableContainer sx={{ borderTop: 1, borderColor: 'divider' }}>
      <Table size="small">
        <TableHead>
          <TableRow sx={{ '& th': { whiteSpace: 'nowrap' } }}>
            <TableCell>{t('subjects.function.subject')}</TableCell>
            <TableCell>{t('subjects.function.subActivity')}</TableCell>
            <TableCell>{t('subjects.mainNodeStatus')}</TableCell>
            <TableCell>{t('subjects.marks.criticity')}</TableCell>
            <TableCell>{t('subjects.steps')}</TableCell>
            <TableCell>{t('subjects.lastUpdate')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {subjects.map((subject) => (
            <TableRow key={subject.id} hover>
              <TableCell sx={{ minWidth: 220 }}>
                <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
                  {subject.lifetimeEvents.standardized && (
                    <Tooltip title={t('subjects.marks.standardized')}>
                      <VerifiedUser fontSize="small" sx={{ color: 'accent.main' }} aria-label={t('subjects.marks.standardized')} aria-hidden={false} />
                    </Tooltip>
                  )}
                  <Link component={RouterLink} to={subjectPath(subject.id)} underline="hover" sx={{ fontWeight: 500 }}>
                    {subject.name}
                  </Link>
                </Stack>
              </TableCell>
              <TableCell>{subject.activityId === activityId ? '' : (subActivityNames.get(subject.activityId) ?? '')}</TableCell>
              <TableCell>
                <NodeStatusChip status={subject.mainNodeStatus} />
              </TableCell>
              <TableCell>
                <Chip
                  size="small"
                  color={subject.criticityLevel ? LEVEL_COLOURS[subject.criticityLevel] : 'default'}
                  variant={subject.criticityLevel ? 'filled' : 'outlined'}
                  label={t(levelTextKey(subject.criticityLevel))}
                />
              </TableCell>
              <TableCell>
                <StepMarkers subject={subject} />
              </TableCell>
              <TableCell sx={{ color: 'text.secondary', whiteSpace: 'nowrap' }}>
                {lifetime(subject.lifetimeEvents.lastUpdate, t('subjects.never'))}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  )
}
