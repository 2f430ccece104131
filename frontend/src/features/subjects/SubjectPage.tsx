import ArrowBack from '@mui/icons-material/ArrowBack'
import CheckCircle from '@mui/icons-material/CheckCircle'
import ContentCopy from '@mui/icons-material/ContentCopy'
import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import EditOutlined from '@mui/icons-material/EditOutlined'
import Speed from '@mui/icons-material/Speed'
import Visibility from '@mui/icons-material/Visibility'
import VerifiedUser from '@mui/icons-material/VerifiedUser'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Divider from '@mui/material/Divider'
import Grid from '@mui/material/Grid'
import IconButton from '@mui/material/IconButton'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import type SvgIcon from '@mui/material/SvgIcon'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useNavigate, useParams } from 'react-router'
import { createFromSubjectPath, editSubjectPath, SUBJECTS_PATH } from '../../lib/paths'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { ResourceGallery } from '../../components/gallery/ResourceGallery'
import { DiscussionPanel } from '../../components/discussion/DiscussionPanel'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { Notice } from '../../components/Notice'
import { UsageChart } from '../../components/usage/UsageChart'
import { usePageTitle } from '../../lib/pageTitle'
import { idParam } from '../../lib/routeParams'
import { type Mark, type Subject, subjectPictureQuery, subjectQuery, useDeleteSubject, useMarkSubject } from './api'
import { ContextLinks } from './ContextLinks'
import { frequencyTextKey, gravityTextKey, LEVEL_COLOURS, levelTextKey } from './criticity'
import { PreventionMeasures } from './PreventionMeasures'
import { LegacyButtons } from './LegacyButtons'
import { useLifetimeText } from './lifetime'
import { MarkDialog, type MarkKind } from './MarkDialogs'
import { NodeStatusChip } from './NodeStatusChip'
import { QrCodeButton } from './QrCodeButton'

export function SubjectPage() {
  const subjectId = idParam(useParams().subjectId)
  // Keyed by id: another subject is a fresh page, read again from the server.
  return subjectId === undefined ? <NotFoundPage /> : <LoadedSubject key={subjectId} subjectId={subjectId} />
}

function LoadedSubject({ subjectId }: { subjectId: number }) {
  const { t } = useTranslation()
  const { data: subject, error } = useQuery(subjectQuery(subjectId))
  usePageTitle(error ? undefined : t('pageTitles.subject'))
  if (error) return <LoadFailure error={error} />
  if (!subject) return <Loading />
  return <SubjectView subject={subject} />
}

function SubjectView({ subject }: { subject: Subject }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const lifetime = useLifetimeText()
  const mark = useMarkSubject(subject.id)
  const remove = useDeleteSubject()
  const [marking, setMarking] = useState<MarkKind>()
  const [deleting, setDeleting] = useState(false)
  const [notice, setNotice] = useState<string>()
  const events = subject.lifetimeEvents
  const [functionPath, activityPath] = [
    subject.contexts.find((path) => path.some((entry) => entry.type === 'function')),
    subject.contexts.find((path) => path.some((entry) => entry.type === 'activity')),
  ]

  const confirmMark = (chosen: Mark) =>
    mark.mutate(chosen, {
      onSuccess: () => setNotice(t(`subjects.marks.${chosen.kind}Done`)),
      onSettled: () => setMarking(undefined),
    })
  const pencil = (kind: MarkKind, allowed: boolean) =>
    allowed && (
      <Tooltip title={t(`subjects.marks.${kind}Title`)}>
        <IconButton aria-label={t(`subjects.marks.${kind}Title`)} onClick={() => setMarking(kind)}>
          <EditOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
    )

  return (
    <>
      {functionPath && <ContextLinks path={functionPath} />}
      <Stack direction="row" sx={{ alignItems: 'center', columnGap: 1.5, rowGap: 0.5, mt: 0.5, mb: 0.5, flexWrap: 'wrap' }}>
        {events.standardized && (
          <Tooltip title={t('subjects.marks.standardized')}>
            <VerifiedUser sx={{ color: 'accent.main' }} aria-label={t('subjects.marks.standardized')} aria-hidden={false} />
          </Tooltip>
        )}
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {subject.name}
        </Typography>
        <Chip size="small" label={t(`subjects.types.${subject.type}`)} />
        <Chip size="small" label={subject.code} variant="outlined" />
        <DiscussionPanel discussionId={subject.discussionId} />
        <QrCodeButton itemType="subject" itemId={subject.id} />
      </Stack>
      {activityPath && <ContextLinks path={activityPath} dense />}
      <Box sx={{ mt: 2, mb: 3 }}>
        <LegacyButtons subject={subject} />
      </Box>
      <ResourceGallery parentType="subject" parentId={subject.id} />

      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, md: 8 }}>
          <Paper variant="outlined" component="section" aria-label={t('subjects.marks.title')}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, px: 2.5, pt: 2, pb: 1 }}>
              {t('subjects.marks.title')}
            </Typography>
            <MarkRow
              icon={VerifiedUser}
              label={t('subjects.marks.standardized')}
              done={events.standardized !== null}
              action={pencil('standardize', subject.can.standardize)}
            >
              <Typography>{lifetime(events.standardized, t('subjects.marks.notStandardized'))}</Typography>
              {events.standardized && subject.standardizedComment && (
                <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-line', mt: 0.5 }}>
                  {subject.standardizedComment}
                </Typography>
              )}
            </MarkRow>
            <Divider />
            <MarkRow icon={Speed} label={t('subjects.marks.criticity')} done={events.criticity !== null} action={pencil('rate', subject.can.rate)}>
              <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 0.5 }}>
                <Chip
                  size="small"
                  color={subject.criticityLevel ? LEVEL_COLOURS[subject.criticityLevel] : 'default'}
                  label={t(levelTextKey(subject.criticityLevel))}
                />
                {subject.criticity !== null && (
                  <Typography variant="body2" color="text.secondary">
                    {t('subjects.criticity.score', { score: subject.criticity })}
                  </Typography>
                )}
              </Stack>
              <Typography variant="body2">
                {t('subjects.criticity.frequencyIs', { text: t(frequencyTextKey(subject.ratings.frequency)) })}
              </Typography>
              <Typography variant="body2">{t('subjects.criticity.gravityIs', { text: t(gravityTextKey(subject.ratings.gravity)) })}</Typography>
              {events.criticity && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {t('subjects.criticity.ratedBy', { when: lifetime(events.criticity, '') })}
                </Typography>
              )}
            </MarkRow>
            <Divider />
            <MarkRow icon={Visibility} label={t('subjects.marks.followed')} done={events.followed !== null} action={pencil('follow', subject.can.follow)}>
              <Typography>{lifetime(events.followed, t('subjects.marks.notFollowed'))}</Typography>
            </MarkRow>
            <Divider />
            <MarkRow icon={CheckCircle} label={t('subjects.marks.resolved')} done={events.resolved !== null} action={pencil('resolve', subject.can.resolve)}>
              <Typography>{lifetime(events.resolved, t('subjects.marks.notResolved'))}</Typography>
            </MarkRow>
          </Paper>
          <PreventionMeasures subject={subject} />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <SubjectFacts subject={subject} />
        </Grid>
      </Grid>
      <UsageChart target={{ subjectIds: [subject.id] }} sx={{ mt: 2.5 }} />

      <Divider sx={{ my: 3 }} />
      <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button component={RouterLink} to={SUBJECTS_PATH} startIcon={<ArrowBack />}>
          {t('subjects.backToList')}
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        {subject.can.duplicate && (
          <Button variant="outlined" component={RouterLink} to={createFromSubjectPath(subject.id)} startIcon={<ContentCopy />}>
            {t('subjects.createFrom')}
          </Button>
        )}
        {subject.can.edit && (
          <Button variant="contained" component={RouterLink} to={editSubjectPath(subject.id)} startIcon={<EditOutlined />}>
            {t('actions.edit')}
          </Button>
        )}
        {subject.can.delete && (
          <Button variant="outlined" color="error" startIcon={<DeleteOutline />} onClick={() => setDeleting(true)}>
            {t('actions.delete')}
          </Button>
        )}
      </Stack>

      {marking && (
        <MarkDialog kind={marking} subject={subject} pending={mark.isPending} onConfirm={confirmMark} onClose={() => setMarking(undefined)} />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('subjects.deleteTitle')}
          message={t('subjects.deleteMessage', { name: subject.name })}
          confirmLabel={t('actions.delete')}
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(subject.id, {
              onSuccess: () => void navigate(SUBJECTS_PATH, { replace: true }),
              onError: () => setDeleting(false),
            })
          }
          onClose={() => setDeleting(false)}
        />
      )}
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </>
  )
}

interface MarkRowProps {
  icon: typeof SvgIcon
  label: string
  done: boolean
  action: ReactNode
  children: ReactNode
}

function MarkRow({ icon: Icon, label, done, action, children }: MarkRowProps) {
  return (
    <Stack direction="row" spacing={2} sx={{ px: { xs: 2, sm: 2.5 }, py: 1.75, alignItems: 'flex-start' }} role="group" aria-label={label}>
      <Icon color={done ? 'primary' : 'disabled'} sx={{ mt: 0.25 }} />
      {/* On a narrow screen the label goes above its content, which then has the row's width. */}
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ flexGrow: 1, minWidth: 0, gap: { xs: 0.5, sm: 2 } }}>
        <Typography sx={{ width: { sm: 140 }, flexShrink: 0, fontWeight: 600 }}>{label}</Typography>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>{children}</Box>
      </Stack>
      <Box sx={{ width: 40, flexShrink: 0, mt: -0.75 }}>{action}</Box>
    </Stack>
  )
}

function SubjectFacts({ subject }: { subject: Subject }) {
  const { t } = useTranslation()
  const lifetime = useLifetimeText()
  const { data: picture } = useQuery({ ...subjectPictureQuery(subject.id), enabled: subject.pictureUrl !== null })
  const fact = (label: string, value: ReactNode) => (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      {typeof value === 'string' ? <Typography variant="body2">{value}</Typography> : value}
    </Box>
  )
  return (
    <Paper variant="outlined" component="section" aria-label={t('subjects.facts')} sx={{ p: 2.5 }}>
      {picture && <Box component="img" src={picture} alt={subject.name} sx={{ width: '100%', borderRadius: 1, mb: 2 }} />}
      <Stack spacing={1.75}>
        {fact(t('subjects.created'), lifetime(subject.lifetimeEvents.creation, t('subjects.never')))}
        {fact(t('subjects.lastUpdate'), lifetime(subject.lifetimeEvents.lastUpdate, t('subjects.never')))}
        {fact(t('subjects.mainNodeStatus'), <NodeStatusChip status={subject.mainNodeStatus} />)}
        {subject.contributors.length > 0 &&
          fact(
            t('subjects.contributors'),
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mt: 0.5 }}>
              {subject.contributors.map((contributor) => (
                <Chip key={contributor.id} size="small" label={contributor.name} />
              ))}
            </Stack>,
          )}
      </Stack>
    </Paper>
  )
}
