import { zodResolver } from '@hookform/resolvers/zod'
import ContentCopy from '@mui/icons-material/ContentCopy'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { type Control, Controller, type Resolver, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Navigate, useNavigate, useParams } from 'react-router'
import { isApiError } from '../../api/errors'
import { whoAmIQuery } from '../../api/queries'
import { FORBIDDEN_PATH, TRAINING_PATHS_PATH, trainingPathPath } from '../../lib/paths'
import { FormSection } from '../../components/FormSection'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { PageHeader } from '../../components/PageHeader'
import { SearchPicker } from '../../components/people/SearchPicker'
import { ReferenceAutocomplete } from '../../components/references/ReferenceAutocomplete'
import { StaleVersionNotice } from '../../components/StaleVersionNotice'
import { TextInput } from '../../components/TextInput'
import { ThresholdSlider } from '../../components/ThresholdSlider'
import { formatDateTime } from '../../lib/dates'
import { organizationToday } from '../../lib/organizationClock'
import { useMessage } from '../../lib/messages'
import { usePageTitle } from '../../lib/pageTitle'
import { idParam } from '../../lib/routeParams'
import { type Path, type PathFieldsCan, pathQueryOptions, useCreatePath, useUpdatePath } from './api'
import { AssignedModulesEditor } from './AssignedModulesEditor'
import { DateInput, DatesLocalization } from '../../components/DateInput'
import { dateLimits, formFieldOf, formFromPath, newForm, type PathForm, pathSchema, savePayload } from './pathForm'

type Mode = { kind: 'new'; source?: Path } | { kind: 'edit'; source: Path }

/** NewTrainingPath; with a pathId, created from that path (its learner left out). Needs perm_TrainingManagement (the route checks). */
export function NewPathPage() {
  const { t } = useTranslation()
  const { pathId: param } = useParams()
  const pathId = param === undefined ? undefined : (idParam(param) ?? null)
  const { data: user } = useQuery(whoAmIQuery)
  const { data: source, error } = useQuery({ ...pathQueryOptions(pathId ?? 0), enabled: typeof pathId === 'number' })
  usePageTitle(pathId === null || error ? undefined : t('pageTitles.newTrainingPath'))
  if (pathId === null) return <NotFoundPage />
  if (error) return <LoadFailure error={error} />
  if (!user || (pathId !== undefined && !source)) return <Loading />
  if (source && !source.can.createFrom) return <Navigate to={FORBIDDEN_PATH} replace />
  const today = organizationToday()
  return <PathFormView key={source?.id ?? 'new'} mode={{ kind: 'new', source }} creatorId={user.id} initial={source ? formFromPath(source) : newForm(today)} />
}

/** EditTrainingPath: only the path's creator or a path administrator (can.edit), otherwise Forbidden. */
export function EditPathPage() {
  const { t } = useTranslation()
  const pathId = idParam(useParams().pathId)
  const { data: user } = useQuery(whoAmIQuery)
  const { data: source, error } = useQuery({ ...pathQueryOptions(pathId ?? 0), enabled: pathId !== undefined })
  usePageTitle(pathId === undefined || error ? undefined : t('pageTitles.editTrainingPath'))
  if (pathId === undefined) return <NotFoundPage />
  if (error) return <LoadFailure error={error} />
  if (!source || !user) return <Loading />
  if (!source.can.edit) return <Navigate to={FORBIDDEN_PATH} replace />
  return <PathFormView key={source.id} mode={{ kind: 'edit', source }} creatorId={user.id} initial={formFromPath(source)} />
}

interface PathFormViewProps {
  mode: Mode
  creatorId: number
  initial: PathForm
}

function PathFormView({ mode, creatorId, initial }: PathFormViewProps) {
  const { t, i18n } = useTranslation()
  const message = useMessage()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [today] = useState(organizationToday)
  const [stale, setStale] = useState(false)
  const [refused, setRefused] = useState<string>()
  const create = useCreatePath()
  const update = useUpdatePath()
  const editing = mode.kind === 'edit' ? mode.source : undefined
  // Which fields may still change is the server's answer (can.fields); a new path has them all.
  const fields = editing?.can.fields
  const frozen = (field: keyof PathFieldsCan) => fields !== undefined && !fields[field]
  const restricted = fields !== undefined && Object.values(fields).some((allowed) => !allowed)
  // The stop date may not be before today while the path is not accepted (spec 2 §5).
  const notAccepted = !editing || editing.status === 'notAccepted'
  const learnerIds = editing ? (editing.learner ? [editing.learner.id] : []) : undefined
  const { control, handleSubmit, setError, getValues, formState } = useForm<PathForm>({
    resolver: zodResolver(pathSchema({ today, creatorId, learnerIds, fields })) as unknown as Resolver<PathForm>,
    defaultValues: initial,
  })
  const [startDate, stopDate] = useWatch({ control, name: ['startDate', 'stopDate'] })
  const limits = dateLimits({ startDate, stopDate }, today, notAccepted)

  const showServerErrors = (error: Error) => {
    if (!isApiError(error)) return setRefused(error.message)
    let shown = 0
    error.errors.forEach((fieldError) => {
      const field = formFieldOf(fieldError.field)
      if (!field) return
      setError(field, { type: 'server', message: fieldError.code }, { shouldFocus: shown === 0 })
      shown += 1
    })
    if (shown === 0) setRefused(message(error.message))
  }

  const onError = (error: Error) => {
    if (isApiError(error, 409)) {
      if (error.message === 'staleVersion') setStale(true)
      else if (error.errors.length > 0) showServerErrors(error)
      else setRefused(message(error.message))
    } else showServerErrors(error)
  }

  const save = (form: PathForm) => {
    setStale(false)
    setRefused(undefined)
    const body = savePayload(form)
    if (editing) {
      update.mutate({ pathId: editing.id, body: { ...body, version: editing.version } }, { onSuccess: (saved) => void navigate(trainingPathPath(saved.id)), onError })
      return
    }
    create.mutate(
      { ...body, learnerIds: form.learners.map((learner) => learner.id), learnerGroupIds: form.learnerGroups.map((group) => group.id) },
      { onSuccess: (created) => void navigate(created.length === 1 ? trainingPathPath(created[0].id) : TRAINING_PATHS_PATH), onError },
    )
  }

  const leave = () => void navigate(editing ? trainingPathPath(editing.id) : mode.source ? trainingPathPath(mode.source.id) : TRAINING_PATHS_PATH)
  const title = t(editing ? 'trainingPaths.form.editTitle' : 'trainingPaths.form.newTitle')
  const readOnlyHelp = t('trainingPaths.form.readOnly')

  return (
    <>
      <PageHeader title={title} />
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, maxWidth: 920 }}>
        <DatesLocalization>
          <form onSubmit={(event) => void handleSubmit(save)(event)} noValidate aria-label={title}>
            {mode.kind === 'new' && mode.source && (
              <Alert icon={<ContentCopy fontSize="inherit" />} severity="info" sx={{ mb: 3 }}>
                {t('trainingPaths.form.source', { title: mode.source.title })}
              </Alert>
            )}
            <Stack spacing={1}>
              {editing ? (
                <FormSection title={t('trainingPaths.form.learnerSection')}>
                  <Typography>{editing.learner?.name ?? t('trainingPaths.unknownUser')}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {t('trainingPaths.form.createdBy', { user: editing.creation.userName, date: formatDateTime(editing.creation.date, i18n.language) })}
                  </Typography>
                  {restricted && (
                    <Alert severity="info" sx={{ mt: 1 }}>
                      {t('trainingPaths.form.restricted')}
                    </Alert>
                  )}
                </FormSection>
              ) : (
                <FormSection title={t('trainingPaths.form.learnerSection')} help={t('trainingPaths.form.learnersHelp')}>
                  <PickerField control={control} name="learners" of="people" label={t('trainingPaths.form.learners')} />
                  <PickerField control={control} name="learnerGroups" of="groups" label={t('trainingPaths.form.learnerGroups')} />
                </FormSection>
              )}
              <FormSection title={t('trainingPaths.form.pathSection')}>
                <TextInput control={control} name="title" label={t('trainingPaths.fields.title')} required autoComplete="off" readOnly={frozen('title')} readOnlyHelp={readOnlyHelp} />
                <Controller
                  control={control}
                  name="reference"
                  render={({ field, fieldState }) => (
                    <ReferenceAutocomplete
                      type="path"
                      label={t('trainingPaths.fields.reference')}
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      inputRef={field.ref}
                      readOnly={frozen('reference')}
                      error={fieldState.error?.message}
                    />
                  )}
                />
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 2 }}>
                  <DateInput control={control} name="startDate" label={t('trainingPaths.fields.startDate')} readOnly={frozen('startDate')} readOnlyText={t('trainingPaths.form.readOnly')} maxDate={limits.maxStart} />
                  <DateInput control={control} name="stopDate" label={t('trainingPaths.fields.stopDate')} readOnly={frozen('stopDate')} readOnlyText={t('trainingPaths.form.readOnly')} minDate={limits.minStop} />
                </Stack>
                <ThresholdSlider control={control} name="passThreshold" label={(value) => t('trainingPaths.form.threshold', { value })} valueText={(n) => t('trainingPaths.outOfTen', { value: n })} disabled={frozen('passThreshold')} />
              </FormSection>
              <FormSection title={t('trainingPaths.form.visibility')} help={t('trainingPaths.form.visibilityHelp')}>
                <PickerField control={control} name="visibleByPersons" of="people" label={t('trainingPaths.fields.visibleByPersons')} readOnly={frozen('visibleByPersons')} />
                <PickerField control={control} name="visibleByGroups" of="groups" label={t('trainingPaths.fields.visibleByGroups')} readOnly={frozen('visibleByGroups')} />
              </FormSection>
              <AssignedModulesEditor control={control} getValues={getValues} today={today} restricted={frozen('assignedModules')} referentsReadOnly={frozen('referents')} error={formState.errors.modules?.root?.message ?? formState.errors.modules?.message} />
              {Object.keys(formState.errors).length > 0 && <Alert severity="error">{t('codes.atLeastOneErrorLeft')}</Alert>}
              {refused && <Alert severity="error">{refused}</Alert>}
              {stale && editing && (
                <StaleVersionNotice
                  message={t('trainingPaths.form.stale')}
                  readAgainLabel={t('trainingPaths.form.readAgain')}
                  onReadAgain={() => void queryClient.invalidateQueries({ queryKey: pathQueryOptions(editing.id).queryKey, exact: true })}
                />
              )}
            </Stack>
            <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end', mt: 3 }}>
              <Button onClick={leave}>{t('actions.cancel')}</Button>
              <Button type="submit" variant="contained" loading={create.isPending || update.isPending}>
                {t('actions.save')}
              </Button>
            </Stack>
          </form>
        </DatesLocalization>
      </Paper>
    </>
  )
}

/** A form field choosing several users or groups (learners, visibility). */
function PickerField({
  control,
  name,
  of,
  label,
  readOnly,
}: {
  control: Control<PathForm>
  name: 'learners' | 'learnerGroups' | 'visibleByPersons' | 'visibleByGroups'
  of: 'people' | 'groups'
  label: string
  readOnly?: boolean
}) {
  const message = useMessage()
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <SearchPicker
          of={of}
          multiple
          label={label}
          readOnly={readOnly}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={fieldState.error !== undefined}
          helperText={message(fieldState.error?.message) ?? ' '}
        />
      )}
    />
  )
}
