import ArrowBack from '@mui/icons-material/ArrowBack'
import TaskAlt from '@mui/icons-material/TaskAlt'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import dayjs from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, Navigate, useNavigate, useParams } from 'react-router'
import { type ApiError, isApiError } from '../../api/errors'
import { queryKeys } from '../../api/queryKeys'
import { FORBIDDEN_PATH, mediationPath } from '../../lib/paths'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { PageHeader } from '../../components/PageHeader'
import { useMessage } from '../../lib/messages'
import { usePageTitle } from '../../lib/pageTitle'
import { useDebouncedValue } from '../../lib/useDebouncedValue'
import { idParam } from '../../lib/routeParams'
import {
  type Mediation,
  mediationQuery,
  type ReportItemIn,
  type TrackedAction,
  trackedActionsQuery,
  trackingCheckQuery,
  useChangeMediationStatus,
  useSaveReport,
  useSaveTrackingPeriods,
} from './api'
import {
  checkedErrors,
  durationMinutes,
  type EditedPeriod,
  entryErrors,
  hasErrors,
  periodAfter,
  type PeriodErrors,
  periodsByStart,
  periodsChanged,
  periodsKey,
  periodsToCheck,
  periodsToSave,
} from './trackingPeriods'
import { useDurationText } from './reportTexts'
import { ParticipantsNeeded } from './ParticipantsNeeded'
import { Section } from './Section'
import { TrackedActionsList } from './TrackedActionsList'
import { editedPeriod, type PeriodInputs, periodInputs, storedPeriodInputs, TrackingPeriodsEditor } from './TrackingPeriodsEditor'
import { useNow } from './useNow'

export function MediationReportPage() {
  const mediationId = idParam(useParams().mediationId)
  return mediationId === undefined ? <NotFoundPage /> : <LoadedReport key={mediationId} mediationId={mediationId} />
}

function LoadedReport({ mediationId }: { mediationId: number }) {
  const { data: mediation, error } = useQuery(mediationQuery(mediationId))
  // Spec 1 §2: a mediation that cannot be loaded shows NotFound (Forbidden when it exists but is hidden).
  if (error) return <LoadFailure error={error} />
  if (!mediation) return <Loading />
  return <ReportGate opened={mediation} />
}

/**
 * Whether the user may write the report is decided once, as the page opens: saving and validating
 * changes the mediation (and its `can`) just before the page goes back to the view.
 */
function ReportGate({ opened }: { opened: Mediation }) {
  const { t } = useTranslation()
  const [allowed] = useState(opened.can.editReport)
  // The mediator of a mediation without participants is told what to do rather than refused.
  const needsParticipants = !allowed && opened.can.reportNeeds.includes('participants')
  usePageTitle(allowed || needsParticipants ? t('mediations.report.pageTitle') : undefined)
  if (needsParticipants) {
    return (
      <>
        <PageHeader title={t('mediations.report.title', { title: opened.title })} />
        <Stack spacing={2} sx={{ maxWidth: 960, alignItems: 'flex-start' }}>
          <ParticipantsNeeded mediation={opened} message={t('mediations.report.needsParticipants')} />
          <Button component={RouterLink} to={mediationPath(opened.id)} startIcon={<ArrowBack />}>
            {t('mediations.form.back')}
          </Button>
        </Stack>
      </>
    )
  }
  if (!allowed) return <Navigate to={FORBIDDEN_PATH} replace />
  return <ReportForm opened={opened} />
}

/** Where the server's refusals go: on a period's start or stop, under the comment, or above the buttons. */
interface Refusals {
  periods: Record<number, PeriodErrors>
  comment?: string
  /** A message key of mediations.report.* or codes.*, with its values. */
  general?: { key: string; values?: Record<string, string> }
}

function ReportForm({ opened }: { opened: Mediation }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const message = useMessage()
  const now = useNow()
  const duration = useDurationText()
  const { data: mediation = opened } = useQuery(mediationQuery(opened.id))

  const [periods, setPeriods] = useState<PeriodInputs[]>(() => storedPeriodInputs(opened.trackingPeriods))
  const [nextKey, setNextKey] = useState(opened.trackingPeriods.length)
  /** The periods whose tracked actions are listed. */
  const [listed, setListed] = useState<EditedPeriod[]>(() => periods.map(editedPeriod))
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set(opened.reporting?.items.map((item) => item.trackingId)))
  const [comment, setComment] = useState(opened.reporting?.comment ?? '')
  const [refusals, setRefusals] = useState<Refusals>({ periods: {} })
  /** The save under way: a plain save, or one that validates after. */
  const [saving, setSaving] = useState<'save' | 'validate'>()

  const edited = periods.map(editedPeriod)
  const entry = entryErrors(edited)
  // The server says whether the entered periods may be saved, once the mediator stops typing; an answer
  // about other periods than those shown is not shown.
  const toCheck = periodsToCheck(edited)
  const typed = JSON.stringify(toCheck)
  const settled = useDebouncedValue(typed)
  const asked = JSON.parse(settled) as typeof toCheck
  const { data: check } = useQuery({ ...trackingCheckQuery(mediation.id, asked.periods), enabled: asked.periods.length > 0 })
  const checked = checkedErrors(settled === typed ? (check?.errors ?? []) : [], toCheck.indexes, edited.length)
  const ownErrors = entry.map((own, index) => ({ ...checked[index], ...own }))
  const errors = ownErrors.map((own, index) => ({ ...refusals.periods[periods[index].key], ...own }))
  const periodsInvalid = hasErrors(ownErrors)
  const stale = periodsKey(listed) !== periodsKey(edited)

  const actionQueries = useQueries({
    queries: periodsToSave(listed).map(({ start, stop }) => trackedActionsQuery(mediation.id, start, stop)),
  })
  const actions = mergedActions(actionQueries.map((query) => query.data))
  const actionsLoading = actionQueries.some((query) => query.isPending && !query.isError)
  const actionsFailed = actionQueries.some((query) => query.isError)
  const chosen = actions.filter((action) => selected.has(action.id))

  const trackingFields = ['periods', ...periods.flatMap((_, index) => [`periods.${index}.start`, `periods.${index}.stop`])]
  const saveTracking = useSaveTrackingPeriods(mediation.id, { formFields: trackingFields, handledStatuses: [409] })
  const reportFields = ['comment', 'items', ...chosen.map((_, index) => `items.${index}.trackingId`)]
  const saveReport = useSaveReport(mediation.id, { formFields: reportFields, handledStatuses: [409] })
  const validate = useChangeMediationStatus(mediation.id, { handledStatuses: [409] })

  const changePeriods = (next: PeriodInputs[]) => {
    setPeriods(next)
    setRefusals((current) => ({ ...current, periods: {}, general: undefined }))
  }
  const addPeriod = () => {
    changePeriods([...periods, periodInputs(nextKey, periodAfter(edited, now))])
    setNextKey(nextKey + 1)
  }
  const reloadActions = () => {
    setListed(edited)
    void queryClient.invalidateQueries({ queryKey: [...queryKeys.mediations.mediation(mediation.id), 'trackedActions'] })
  }
  const toggle = (actionId: number) => {
    const next = new Set(selected)
    if (next.has(actionId)) next.delete(actionId)
    else next.add(actionId)
    setSelected(next)
    setRefusals((current) => ({ ...current, comment: undefined }))
  }

  /** The server's refusal of a step, put where it belongs; what was typed stays. */
  const refused = (error: unknown, sentOrder: number[]) => {
    if (!isApiError(error)) return
    if (error.status === 409) {
      void queryClient.invalidateQueries({ queryKey: mediationQuery(mediation.id).queryKey, exact: true })
      setRefusals({ periods: {}, general: conflictMessage(error) })
      return
    }
    const next: Refusals = { periods: {} }
    for (const { field, code } of error.errors) {
      const [name, index, part] = field.split('.')
      if (name === 'periods' && index !== undefined && (part === 'start' || part === 'stop')) {
        const key = periods[sentOrder[Number(index)]]?.key
        if (key !== undefined) next.periods[key] = { ...next.periods[key], [part]: code }
      } else if (name === 'periods') next.general = { key: `codes.${code}` }
      else if (name === 'comment') next.comment = code
      else if (name === 'items') next.general = { key: 'mediations.report.actionGone' }
    }
    setRefusals(next)
  }

  const save = async (andValidate: boolean) => {
    if (periodsInvalid || stale || actionsFailed || actionsLoading) return
    setRefusals({ periods: {} })
    setSaving(andValidate ? 'validate' : 'save')
    let current = mediation
    const sentOrder = periodsByStart(edited)
    const items: ReportItemIn[] = chosen.map((action) => ({ itemType: 'Tracking', trackingId: action.id }))
    try {
      if (periodsChanged(current.trackingPeriods, edited)) {
        current = await saveTracking.mutateAsync({ periods: periodsToSave(edited), version: current.version })
      }
      current = await saveReport.mutateAsync({ comment: comment.trim(), items, version: current.version })
      if (andValidate) await validate.mutateAsync('validated')
      void navigate(mediationPath(current.id))
    } catch (error) {
      refused(error, sentOrder)
      setSaving(undefined)
    }
  }

  const conflictMessage = (error: ApiError): Refusals['general'] => {
    const status = error.errors.find((e) => e.field === 'status')?.code
    return status
      ? { key: 'mediations.report.conflict', values: { status: t(`mediationStatuses.${status}`) } }
      : { key: 'mediations.report.stale' }
  }

  const blocked = stale || periodsInvalid || actionsFailed || actionsLoading
  const total = periodsInvalid ? undefined : durationMinutes(periodsToSave(edited), now)
  return (
    <>
      <PageHeader title={t('mediations.report.title', { title: mediation.title })} />
      <form
        noValidate
        aria-label={t('mediations.report.pageTitle')}
        onSubmit={(event) => {
          event.preventDefault()
          void save(false)
        }}
      >
        <Stack spacing={2.5} sx={{ maxWidth: 960 }}>
          <Section title={t('mediations.report.dates')}>
            <TrackingPeriodsEditor periods={periods} errors={errors} onChange={changePeriods} onAdd={addPeriod} />
            {total !== undefined && (
              <Typography sx={{ mt: 1, fontWeight: 600 }}>{t('mediations.view.totalDuration', { duration: duration(total) })}</Typography>
            )}
          </Section>
          <Section title={t('mediations.report.actions')}>
            <TrackedActionsList
              actions={actions}
              loading={actionsLoading}
              failed={actionsFailed}
              selected={selected}
              onToggle={toggle}
              stale={stale}
              periodsInvalid={periodsInvalid}
              onReload={reloadActions}
            />
          </Section>
          <Section title={t('mediations.report.comment')}>
            <TextField
              label={t('mediations.report.comment')}
              value={comment}
              onChange={(event) => {
                setComment(event.target.value)
                setRefusals((current) => ({ ...current, comment: undefined }))
              }}
              multiline
              minRows={4}
              fullWidth
              error={refusals.comment !== undefined}
              helperText={message(refusals.comment) ?? t('mediations.report.commentHelp')}
            />
          </Section>
          {periodsInvalid && <Alert severity="error">{t('codes.atLeastOneErrorLeft')}</Alert>}
          {!periodsInvalid && stale && <Alert severity="warning">{t('mediations.report.saveBlocked')}</Alert>}
          {refusals.general && <Alert severity="error">{t(refusals.general.key, refusals.general.values)}</Alert>}
          <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end', flexWrap: 'wrap', rowGap: 1.5 }}>
            <Button onClick={() => void navigate(mediationPath(mediation.id))}>{t('actions.cancel')}</Button>
            <Button type="submit" variant="outlined" disabled={blocked || saving !== undefined} loading={saving === 'save'}>
              {t('actions.save')}
            </Button>
            <Button
              variant="contained"
              startIcon={<TaskAlt />}
              disabled={blocked || saving !== undefined}
              loading={saving === 'validate'}
              onClick={() => void save(true)}
            >
              {t('mediations.report.saveAndValidate')}
            </Button>
          </Stack>
        </Stack>
      </form>
    </>
  )
}

/** The actions of every period, once each, oldest first. */
function mergedActions(lists: (TrackedAction[] | undefined)[]): TrackedAction[] {
  const byId = new Map<number, TrackedAction>()
  for (const list of lists) for (const action of list ?? []) byId.set(action.id, action)
  return [...byId.values()].sort((a, b) => dayjs(a.date).valueOf() - dayjs(b.date).valueOf() || a.id - b.id)
}
