import { zodResolver } from '@hookform/resolvers/zod'
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { DatePicker } from '@mui/x-date-pickers/DatePicker'
import { TimeField } from '@mui/x-date-pickers/TimeField'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Dayjs } from 'dayjs'
import { useEffect, useRef, useState } from 'react'
import { type Control, Controller, type Resolver, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { isApiError } from '../../api/errors'
import { whoAmIQuery } from '../../api/queries'
import { mediationPath, MEDIATIONS_PATH } from '../../lib/paths'
import { DatesLocalization } from '../../components/DateInput'
import { FormSection } from '../../components/FormSection'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { PageHeader } from '../../components/PageHeader'
import { SearchPicker } from '../../components/people/SearchPicker'
import { TextInput } from '../../components/TextInput'
import { StaleVersionNotice } from '../../components/StaleVersionNotice'
import { datePattern, organizationTimeZone } from '../../lib/dates'
import { organizationNow } from '../../lib/organizationClock'
import { showServerFieldErrors } from '../../lib/forms'
import { useMessage } from '../../lib/messages'
import { usePageTitle } from '../../lib/pageTitle'
import { idParam } from '../../lib/routeParams'
import { type Mediation, mediationQuery, useCreateMediation, useCreateUnplannedMediation, useUpdateMediation } from './api'
import {
  ALL_EDITABLE,
  type EditableFields,
  formFieldOf,
  formFromMediation,
  type MediationForm,
  maxDate,
  mediationSchema,
  newForm,
  savePayload,
  scheduleOf,
  startSchema,
} from './mediationForm'
import { useNow } from './useNow'
import { ZoneNote } from './ZoneNote'

const TIME_FORMAT = 'HH:mm'

/** NewMediation; with `?mode=start`, 'Create and start' (a title only). */
export function NewMediationPage() {
  const { t } = useTranslation()
  const [query] = useSearchParams()
  const starting = query.get('mode') === 'start'
  usePageTitle(t(starting ? 'pageTitles.startMediation' : 'pageTitles.newMediation'))
  const { data: user } = useQuery(whoAmIQuery)
  if (starting) return <StartMediationView />
  if (!user) return <Loading />
  return <MediationFormView mode={{ kind: 'new' }} initial={newForm({ id: user.id, name: user.displayName }, organizationNow())} />
}

export function EditMediationPage() {
  const { t } = useTranslation()
  const mediationId = idParam(useParams().mediationId)
  const { data: source, error } = useQuery({ ...mediationQuery(mediationId ?? 0), enabled: mediationId !== undefined })
  usePageTitle(mediationId === undefined || error ? undefined : t('pageTitles.editMediation'))
  if (mediationId === undefined) return <NotFoundPage />
  if (error) return <LoadFailure error={error} />
  if (!source) return <Loading />
  // One who may read it but change nothing sees the form read-only (spec 1 §6): `can.fields` says so.
  return <MediationFormView key={source.id} mode={{ kind: 'edit', source }} initial={formFromMediation(source)} />
}

type Mode = { kind: 'new' } | { kind: 'edit'; source: Mediation }

function MediationFormView({ mode, initial }: { mode: Mode; initial: MediationForm }) {
  const { t } = useTranslation()
  const message = useMessage()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const now = useNow()
  const [stale, setStale] = useState(false)
  const create = useCreateMediation()
  const update = useUpdateMediation()
  const editable: EditableFields = mode.kind === 'edit' ? mode.source.can.fields : ALL_EDITABLE
  const original = mode.kind === 'edit' ? mode.source.schedulingDate : undefined
  const { control, handleSubmit, setError, getValues, trigger, formState } = useForm<MediationForm>({
    // Read again on each render: the rules follow the time, refreshed every minute.
    resolver: zodResolver(mediationSchema({ now, editable, original })) as unknown as Resolver<MediationForm>,
    defaultValues: initial,
  })
  const { isSubmitted } = formState

  // A time that was late enough may no longer be: once the form was checked, each new minute checks it
  // again (and only a new minute: a server's error on these fields stays until they change).
  const checkedAt = useRef(now)
  useEffect(() => {
    if (checkedAt.current === now) return
    checkedAt.current = now
    if (isSubmitted) void trigger(['date', 'time'])
  }, [now, isSubmitted, trigger])

  const showServerErrors = (error: Error) => {
    if (!isApiError(error)) return
    const form = getValues()
    error.errors.forEach((fieldError, index) => {
      const field = formFieldOf(fieldError.field, form, now)
      if (field) setError(field, { type: 'server', message: fieldError.code }, { shouldFocus: index === 0 })
    })
  }

  const save = (form: MediationForm) => {
    setStale(false)
    const handlers = {
      onSuccess: (mediation: Mediation) => void navigate(mediationPath(mediation.id)),
      onError: (error: Error) => {
        // A 409 naming fields (fieldNotEditable) shows on them; any other says the mediation changed.
        if (isApiError(error, 409) && error.errors.length === 0) setStale(true)
        else showServerErrors(error)
      },
    }
    const body = savePayload(form, original)
    if (mode.kind === 'new') create.mutate(body, handlers)
    else update.mutate({ mediationId: mode.source.id, body: { ...body, version: mode.source.version } }, handlers)
  }

  const leave = () => void navigate(mode.kind === 'edit' ? mediationPath(mode.source.id) : MEDIATIONS_PATH)
  const readOnlyHelp = t('mediations.form.readOnly')
  const helper = (error: string | undefined, canEdit: boolean) => message(error) ?? (canEdit ? ' ' : readOnlyHelp)
  const readOnly = !Object.values(editable).some(Boolean)
  const title = t(mode.kind === 'new' ? 'mediations.form.newTitle' : readOnly ? 'mediations.form.readTitle' : 'mediations.form.editTitle')

  return (
    <>
      <PageHeader title={title} />
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, maxWidth: 820 }}>
        <form onSubmit={(event) => void handleSubmit(save)(event)} noValidate aria-label={title}>
          <Stack spacing={1}>
            {readOnly && (
              <Alert severity="info" sx={{ mb: 2 }}>
                {t('mediations.form.nothingEditable')}
              </Alert>
            )}
            <TextInput control={control} name="title" label={t('mediations.form.title')} required autoComplete="off" readOnly={!editable.title} readOnlyHelp={readOnlyHelp} />
            <TextInput
              control={control}
              name="description"
              autoComplete="off"
              label={t('mediations.form.description')}
              multiline
              readOnly={!editable.description}
              readOnlyHelp={readOnlyHelp}
            />
            <FormSection title={t('mediations.form.schedule')} help={t('mediations.form.scheduleHelp')}>
              <ScheduleInputs control={control} now={now} readOnly={!editable.schedulingDate} helper={helper} />
            </FormSection>
            <FormSection title={t('mediations.form.people')}>
              <Controller
                control={control}
                name="mediator"
                render={({ field, fieldState }) => (
                  <SearchPicker
                    of="people"
                    label={t('mediations.form.mediator')}
                    required
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    inputRef={field.ref}
                    readOnly={!editable.mediator}
                    error={fieldState.error !== undefined}
                    helperText={helper(fieldState.error?.message, editable.mediator)}
                  />
                )}
              />
              <Controller
                control={control}
                name="participants"
                render={({ field, fieldState }) => (
                  <SearchPicker
                    of="people"
                    multiple
                    label={t('mediations.form.participants')}
                    required
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    inputRef={field.ref}
                    readOnly={!editable.participants}
                    error={fieldState.error !== undefined}
                    helperText={helper(fieldState.error?.message, editable.participants)}
                  />
                )}
              />
            </FormSection>
            <FormSection title={t('mediations.form.visibility')} help={t('mediations.form.visibilityHelp')}>
              <Controller
                control={control}
                name="visibleByGroups"
                render={({ field, fieldState }) => (
                  <SearchPicker
                    of="groups"
                    multiple
                    label={t('mediations.form.visibleByGroups')}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    inputRef={field.ref}
                    readOnly={!editable.visibleByGroups}
                    error={fieldState.error !== undefined}
                    helperText={helper(fieldState.error?.message, editable.visibleByGroups)}
                  />
                )}
              />
              <Controller
                control={control}
                name="visibleByPersons"
                render={({ field, fieldState }) => (
                  <SearchPicker
                    of="people"
                    multiple
                    label={t('mediations.form.visibleByPersons')}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    inputRef={field.ref}
                    readOnly={!editable.visibleByPersons}
                    error={fieldState.error !== undefined}
                    helperText={helper(fieldState.error?.message, editable.visibleByPersons)}
                  />
                )}
              />
            </FormSection>
            {Object.keys(formState.errors).length > 0 && <Alert severity="error">{t('codes.atLeastOneErrorLeft')}</Alert>}
            {stale && mode.kind === 'edit' && (
              <StaleVersionNotice
                message={t('mediations.form.stale')}
                readAgainLabel={t('mediations.form.readAgain')}
                onReadAgain={() => void queryClient.invalidateQueries({ queryKey: mediationQuery(mode.source.id).queryKey, exact: true })}
              />
            )}
          </Stack>
          <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end', mt: 3 }}>
            {readOnly ? (
              <Button variant="contained" onClick={leave}>
                {t('mediations.form.back')}
              </Button>
            ) : (
              <>
                <Button onClick={leave}>{t('actions.cancel')}</Button>
                <Button type="submit" variant="contained" loading={create.isPending || update.isPending}>
                  {t('actions.save')}
                </Button>
              </>
            )}
          </Stack>
        </form>
      </Paper>
    </>
  )
}

interface ScheduleInputsProps {
  control: Control<MediationForm>
  now: Dayjs
  readOnly: boolean
  helper: (error: string | undefined, canEdit: boolean) => string
}

/**
 * The scheduling date (YYYY-MM-DD in English, DD/MM/YYYY in French) and its 24 h time (HH:MM), on the
 * organisation's clocks; under them, its zone when the browser's differs.
 */
function ScheduleInputs({ control, now, readOnly, helper }: ScheduleInputsProps) {
  const { t, i18n } = useTranslation()
  const [date, time] = useWatch({ control, name: ['date', 'time'] })
  const zone = organizationTimeZone()
  return (
    <DatesLocalization>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 2 }}>
        <Controller
          control={control}
          name="date"
          render={({ field, fieldState }) => (
            <DatePicker
              label={t('mediations.form.date')}
              value={field.value}
              onChange={field.onChange}
              inputRef={field.ref}
              format={datePattern(i18n.language)}
              timezone={zone}
              maxDate={maxDate()}
              readOnly={readOnly}
              slotProps={{
                textField: { fullWidth: true, onBlur: field.onBlur, error: fieldState.error !== undefined, helperText: helper(fieldState.error?.message, !readOnly) },
                field: { clearable: !readOnly },
              }}
            />
          )}
        />
        <Controller
          control={control}
          name="time"
          render={({ field, fieldState }) => (
            <TimeField
              label={t('mediations.form.time')}
              value={field.value}
              onChange={field.onChange}
              inputRef={field.ref}
              format={TIME_FORMAT}
              timezone={zone}
              ampm={false}
              readOnly={readOnly}
              fullWidth
              onBlur={field.onBlur}
              error={fieldState.error !== undefined}
              helperText={helper(fieldState.error?.message, !readOnly)}
            />
          )}
        />
      </Stack>
      <ZoneNote at={scheduleOf({ date, time }) ?? now} />
    </DatesLocalization>
  )
}

/** 'Create and start' (spec 1 §4): a title, then the mediation is created with the user as mediator and started. */
function StartMediationView() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const start = useCreateUnplannedMediation()
  const { control, handleSubmit, setError } = useForm<{ title: string }>({ resolver: zodResolver(startSchema), defaultValues: { title: '' } })
  const title = t('mediations.form.startTitle')
  const save = ({ title: typed }: { title: string }) =>
    start.mutate(typed, {
      onSuccess: (mediation) => void navigate(mediationPath(mediation.id)),
      onError: (error) => showServerFieldErrors(error, ['title'], setError),
    })
  return (
    <>
      <PageHeader title={title} />
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, maxWidth: 820 }}>
        <form onSubmit={(event) => void handleSubmit(save)(event)} noValidate aria-label={title}>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('mediations.form.startHelp')}
          </Typography>
          <TextInput control={control} name="title" label={t('mediations.form.title')} required autoFocus autoComplete="off" />
          <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end', mt: 2 }}>
            <Button onClick={() => void navigate(MEDIATIONS_PATH)}>{t('actions.cancel')}</Button>
            <Button type="submit" variant="contained" startIcon={<PlayArrowOutlined />} loading={start.isPending}>
              {t('mediations.form.createAndStart')}
            </Button>
          </Stack>
        </form>
      </Paper>
    </>
  )
}
