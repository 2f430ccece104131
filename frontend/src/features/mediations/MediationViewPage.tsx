import ArrowBack from '@mui/icons-material/ArrowBack'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Divider from '@mui/material/Divider'
import Grid from '@mui/material/Grid'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import dayjs from 'dayjs'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useParams } from 'react-router'
import { MEDIATIONS_PATH } from '../../lib/paths'
import { DiscussionPanel } from '../../components/discussion/DiscussionPanel'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { Notice } from '../../components/Notice'
import { PeopleNames } from '../../components/people/PeopleNames'
import { formatDate, formatTime } from '../../lib/dates'
import { usePageTitle } from '../../lib/pageTitle'
import { idParam } from '../../lib/routeParams'
import { type Mediation, mediationQuery } from './api'
import { AttendanceSheetButton } from './AttendanceSheetButton'
import { InvitationButton } from './InvitationButton'
import { MediationActions } from './MediationActions'
import { MediationSignatures } from './MediationSignatures'
import { MediationSteps } from './MediationSteps'
import { Section } from './Section'
import { ParticipantsNeeded } from './ParticipantsNeeded'
import { useActionLine, useDurationText } from './reportTexts'
import { formatDateTime } from './status'

export function MediationViewPage() {
  const mediationId = idParam(useParams().mediationId)
  // Keyed by id: another mediation is a fresh page, read again from the server.
  return mediationId === undefined ? <NotFoundPage /> : <LoadedMediation key={mediationId} mediationId={mediationId} />
}

function LoadedMediation({ mediationId }: { mediationId: number }) {
  const { t } = useTranslation()
  const { data: mediation, error } = useQuery(mediationQuery(mediationId))
  usePageTitle(error ? undefined : t('mediations.view.pageTitle'))
  // Spec 1 §8: 403 goes to Forbidden, 404 (and an unreadable id) shows NotFound.
  if (error) return <LoadFailure error={error} />
  if (!mediation) return <Loading />
  return <MediationView mediation={mediation} />
}

function MediationView({ mediation }: { mediation: Mediation }) {
  const { t } = useTranslation()
  const [notice, setNotice] = useState<string>()
  // A refused change stays in view until dismissed (a snackbar would hide the buttons on a phone).
  const [conflict, setConflict] = useState<string>()
  return (
    <>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', columnGap: 1.5, rowGap: 1, mb: mediation.status === 'canceled' ? 3 : 1, flexWrap: 'wrap' }}
      >
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, minWidth: 0, overflowWrap: 'anywhere' }}>
          {mediation.title}
        </Typography>
        <Chip
          size="small"
          color={mediation.status === 'canceled' ? 'default' : 'primary'}
          variant="outlined"
          label={t(`mediationStatuses.${mediation.status}`)}
          aria-label={t('mediations.view.statusIs', { status: t(`mediationStatuses.${mediation.status}`) })}
        />
        <DiscussionPanel discussionId={mediation.discussionId} />
      </Stack>
      {mediation.status !== 'canceled' && (
        // A canceled mediation's steps would only say "canceled" again, beside the status chip.
        <Box sx={{ mb: 3 }}>
          <MediationSteps status={mediation.status} />
        </Box>
      )}
      {conflict && (
        <Alert severity="warning" onClose={() => setConflict(undefined)} sx={{ mb: 2.5 }}>
          {conflict}
        </Alert>
      )}

      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, md: 8 }}>
          <Stack spacing={2.5}>
            <Section title={t('mediations.view.description')}>
              {mediation.description ? (
                <Typography sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{mediation.description}</Typography>
              ) : (
                <Typography color="text.secondary">{t('mediations.view.noDescription')}</Typography>
              )}
            </Section>
            <TrackingSection mediation={mediation} />
            <ReportSection mediation={mediation} />
            <MediationSignatures mediation={mediation} onNotice={setNotice} />
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <MediationFacts mediation={mediation} />
        </Grid>
      </Grid>

      <Divider sx={{ my: 3 }} />
      <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }} role="group" aria-label={t('common.actions')}>
        <Button component={RouterLink} to={MEDIATIONS_PATH} startIcon={<ArrowBack />}>
          {t('mediations.view.backToList')}
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        {/* A scheduled mediation is a meeting: the server gives its event (404 notScheduled otherwise). */}
        {mediation.schedulingDate && <InvitationButton mediationId={mediation.id} />}
        <AttendanceSheetButton mediation={mediation} onConflict={setConflict} />
        <MediationActions
          mediation={mediation}
          onDone={(message) => {
            setConflict(undefined)
            setNotice(message)
          }}
          onConflict={setConflict}
        />
      </Stack>
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </>
  )
}

function TrackingSection({ mediation }: { mediation: Mediation }) {
  const { t, i18n } = useTranslation()
  const duration = useDurationText()
  const at = (value: string) => formatDateTime(value, i18n.language)
  const periodText = (start: string, stop?: string | null) => {
    if (!stop) return t('mediations.view.periodRunning', { start: at(start) })
    if (formatDate(start, i18n.language) !== formatDate(stop, i18n.language)) return t('mediations.view.period', { start: at(start), stop: at(stop) })
    const time = formatTime
    // A period covers its start and stop minutes whole: within one minute, it lasted that minute.
    if (dayjs(start).isSame(stop, 'minute')) return t('mediations.view.periodOneMinute', { date: formatDate(start, i18n.language), time: time(start) })
    return t('mediations.view.periodSameDay', { date: formatDate(start, i18n.language), start: time(start), stop: time(stop) })
  }
  const periods = mediation.trackingPeriods
  return (
    <Section title={t('mediations.view.tracking')}>
      {periods.length === 0 ? (
        <Typography color="text.secondary">{t('mediations.view.notStarted')}</Typography>
      ) : (
        <>
          <Box component="ol" sx={{ m: 0, pl: 3 }}>
            {periods.map((period) => (
              <Typography component="li" key={period.start} variant="body2" sx={{ py: 0.25 }}>
                {periodText(period.start, period.stop)}
              </Typography>
            ))}
          </Box>
          <Typography sx={{ mt: 1, fontWeight: 600 }}>{t('mediations.view.totalDuration', { duration: duration(mediation.durationMinutes) })}</Typography>
        </>
      )}
    </Section>
  )
}

function ReportSection({ mediation }: { mediation: Mediation }) {
  const { t, i18n } = useTranslation()
  const line = useActionLine()
  const report = mediation.reporting
  return (
    <Section title={t('mediations.view.report')}>
      {!report ? (
        <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          <Typography color="text.secondary">{t('mediations.view.noReport')}</Typography>
          <ParticipantsNeeded mediation={mediation} message={t(mediation.status === 'stopped' ? 'mediations.report.needsParticipants' : 'mediations.view.needsParticipants')} />
        </Stack>
      ) : (
        <Stack spacing={1.5}>
          {report.date && (
            <Typography variant="body2" color="text.secondary">
              {t('mediations.view.reportedOn', { date: formatDateTime(report.date, i18n.language) })}
            </Typography>
          )}
          {report.comment && <Typography sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{report.comment}</Typography>}
          {report.items.length > 0 && (
            <Box>
              <Typography variant="body2" component="h3" sx={{ fontWeight: 600 }}>
                {t('mediations.view.reportActions', { count: report.items.length })}
              </Typography>
              <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 3 }}>
                {report.items.map((item) => (
                  <Typography component="li" variant="body2" key={item.trackingId} sx={{ overflowWrap: 'anywhere' }}>
                    {line({
                      date: item.date,
                      mode: item.mode,
                      event: item.event,
                      entityType: item.relatedEntity.entityType,
                      entityName: item.relatedEntity.name,
                    })}
                  </Typography>
                ))}
              </Box>
            </Box>
          )}
        </Stack>
      )}
    </Section>
  )
}

function MediationFacts({ mediation }: { mediation: Mediation }) {
  const { t, i18n } = useTranslation()
  const at = (value: string) => formatDateTime(value, i18n.language)
  const inactive = mediation.inactivePeople
  // `left`: the ids of those who left, marked as inactive (a list of groups has none).
  const people = (list: { id: number; name: string }[], empty: string, left: readonly number[] = []) =>
    list.length === 0 ? (
      <Typography variant="body2" color="text.secondary">
        {empty}
      </Typography>
    ) : (
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mt: 0.5 }}>
        {list.map((entry) => (
          <Chip
            key={entry.id}
            size="small"
            // A person who left stays named, marked as inactive (groups are never inactive).
            label={left.includes(entry.id) ? t('mediations.view.inactivePerson', { name: entry.name }) : entry.name}
            variant={left.includes(entry.id) ? 'outlined' : 'filled'}
            // A long name wraps rather than being cut: the whole name is the information.
            sx={{ maxWidth: '100%', height: 'auto', py: 0.25, '& .MuiChip-label': { whiteSpace: 'normal', overflowWrap: 'anywhere' } }}
          />
        ))}
      </Stack>
    )
  const fact = (label: string, value: ReactNode) => (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      {typeof value === 'string' ? <Typography variant="body2">{value}</Typography> : value}
    </Box>
  )
  const update = mediation.lastUpdate
  return (
    <Paper variant="outlined" component="section" aria-label={t('mediations.view.facts')} sx={{ p: 2.5 }}>
      <Stack spacing={1.75}>
        {fact(t('mediations.view.schedulingDate'), mediation.schedulingDate ? at(mediation.schedulingDate) : t('mediations.list.notScheduled'))}
        {fact(t('mediations.view.creator'), <PeopleNames people={[mediation.creator]} inactive={inactive} empty={t('mediations.view.nobody')} />)}
        {fact(t('mediations.view.mediator'), <PeopleNames people={[mediation.mediator]} inactive={inactive} empty={t('mediations.view.nobody')} />)}
        {fact(t('mediations.view.participants'), people(mediation.participants, t('mediations.view.noParticipant'), inactive))}
        {fact(t('mediations.view.visibleByGroups'), people(mediation.visibleByGroups, t('mediations.view.noneVisible')))}
        {fact(t('mediations.view.visibleByPersons'), people(mediation.visibleByPersons, t('mediations.view.noneVisible'), inactive))}
        {fact(
          t('mediations.view.lastUpdate'),
          update ? t('mediations.view.updatedBy', { user: update.userName, date: at(update.date) }) : t('mediations.view.never'),
        )}
      </Stack>
    </Paper>
  )
}
