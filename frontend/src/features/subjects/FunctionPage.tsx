import Add from '@mui/icons-material/Add'
import ArrowBack from '@mui/icons-material/ArrowBack'
import BadgeOutlined from '@mui/icons-material/BadgeOutlined'
import VerifiedUser from '@mui/icons-material/VerifiedUser'
import Box from '@mui/material/Box'
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
import { FUNCTIONS_PATH, newSubjectAtPath, subjectPath, subjectsAtPath } from '../../lib/paths'
import { ResourceGallery } from '../../components/gallery/ResourceGallery'
import { DiscussionPanel } from '../../components/discussion/DiscussionPanel'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { UsageChart } from '../../components/usage/UsageChart'
import { usePageTitle } from '../../lib/pageTitle'
import { idParam } from '../../lib/routeParams'
import { useElementWidth } from '../../lib/useElementWidth'
import type { FunctionView, SubjectSummary } from './api'
import { functionViewQuery } from './api'
import { ContextLinks } from './ContextLinks'
import { LEVEL_COLOURS, levelTextKey } from './criticity'
import { useLifetimeText } from './lifetime'
import { NodeStatusChip } from './NodeStatusChip'
import { QrCodeButton } from './QrCodeButton'
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
        <Stack direction="row" useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1.5, minWidth: 0 }}>
          <BadgeOutlined color="primary" />
          <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
            {view.name}
          </Typography>
          <Chip size="small" variant="outlined" label={t('subjects.function.subjectCount', { count: total })} />
          <DiscussionPanel discussionId={view.discussionId} />
          <QrCodeButton itemType="function" itemId={view.id} />
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
              <Subjects subjects={activity.subjects} activityId={activity.id} subActivityNames={subActivityNames} />
            )}
          </Paper>
        ))}
      </Stack>
      <UsageChart target={{ itemIds: [view.id] }} sx={{ mt: 3 }} />
    </>
  )
}

interface SubjectsProps {
  subjects: SubjectSummary[]
  activityId: number
  subActivityNames: Map<number, string>
}

/** The width under which the table's six columns no longer fit: each subject then lists its facts under its name. */
const TABLE_MIN_WIDTH = 860

/** An activity's subjects: a table on a card wide enough for its columns, else one block per subject. */
function Subjects(props: SubjectsProps) {
  const [ref, width] = useElementWidth<HTMLDivElement>()
  return (
    <Box ref={ref} sx={{ borderTop: 1, borderColor: 'divider' }}>
      {width !== undefined && width < TABLE_MIN_WIDTH ? <SubjectList {...props} /> : <SubjectTable {...props} />}
    </Box>
  )
}

function SubjectName({ subject }: { subject: SubjectSummary }) {
  const { t } = useTranslation()
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', minWidth: 0 }}>
      {subject.lifetimeEvents.standardized && (
        <Tooltip title={t('subjects.marks.standardized')}>
          <VerifiedUser fontSize="small" sx={{ color: 'accent.main' }} aria-label={t('subjects.marks.standardized')} aria-hidden={false} />
        </Tooltip>
      )}
      <Link component={RouterLink} to={subjectPath(subject.id)} underline="hover" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
        {subject.name}
      </Link>
    </Stack>
  )
}

function CriticityChip({ subject }: { subject: SubjectSummary }) {
  const { t } = useTranslation()
  return (
    <Chip
      size="small"
      color={subject.criticityLevel ? LEVEL_COLOURS[subject.criticityLevel] : 'default'}
      variant={subject.criticityLevel ? 'filled' : 'outlined'}
      label={t(levelTextKey(subject.criticityLevel))}
    />
  )
}

/** The subjects one under the other, each with its facts named (a phone, a narrow window). */
function SubjectList({ subjects, activityId, subActivityNames }: SubjectsProps) {
  const { t } = useTranslation()
  const lifetime = useLifetimeText()
  return (
    <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {subjects.map((subject) => {
        const subActivity = subject.activityId === activityId ? undefined : subActivityNames.get(subject.activityId)
        const facts = [
          ...(subActivity ? [{ term: t('subjects.function.subActivity'), value: subActivity }] : []),
          { term: t('subjects.mainNodeStatus'), value: <NodeStatusChip status={subject.mainNodeStatus} /> },
          { term: t('subjects.marks.criticity'), value: <CriticityChip subject={subject} /> },
          { term: t('subjects.steps'), value: <StepMarkers subject={subject} /> },
          { term: t('subjects.lastUpdate'), value: lifetime(subject.lifetimeEvents.lastUpdate, t('subjects.never')) },
        ]
        return (
          <Box component="li" key={subject.id} sx={{ px: 2, py: 1.5, '& + &': { borderTop: 1, borderColor: 'divider' } }}>
            <SubjectName subject={subject} />
            <Box
              component="dl"
              sx={{ display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', alignItems: 'center', columnGap: 1.5, rowGap: 0.75, m: 0, mt: 1 }}
            >
              {facts.map(({ term, value }) => (
                <Box key={term} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="caption" color="text.secondary">
                    {term}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
                    {value}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Box>
        )
      })}
    </Box>
  )
}

function SubjectTable({ subjects, activityId, subActivityNames }: SubjectsProps) {
  const { t } = useTranslation()
  const lifetime = useLifetimeText()
  return (
    <TableContainer>
      <Table size="small">
        <TableHead>
          <TableRow>
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
              <TableCell sx={{ minWidth: 200 }}>
                <SubjectName subject={subject} />
              </TableCell>
              <TableCell>{subject.activityId === activityId ? '' : (subActivityNames.get(subject.activityId) ?? '')}</TableCell>
              <TableCell>
                <NodeStatusChip status={subject.mainNodeStatus} />
              </TableCell>
              <TableCell>
                <CriticityChip subject={subject} />
              </TableCell>
              <TableCell>
                <StepMarkers subject={subject} />
              </TableCell>
              <TableCell sx={{ color: 'text.secondary', minWidth: 140 }}>
                {lifetime(subject.lifetimeEvents.lastUpdate, t('subjects.never'))}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  )
}
