import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import FormControlLabel from '@mui/material/FormControlLabel'
import InputAdornment from '@mui/material/InputAdornment'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import TextField from '@mui/material/TextField'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Controller, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useNavigate, useParams } from 'react-router'
import { isApiError } from '../../api/errors'
import { TRAINING_MODULES_PATH, trainingModulePath } from '../../lib/paths'
import { FormFrame } from '../../components/FormFrame'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { PageHeader } from '../../components/PageHeader'
import { ReferenceAutocomplete } from '../../components/references/ReferenceAutocomplete'
import { TextInput } from '../../components/TextInput'
import { ThresholdSlider } from '../../components/ThresholdSlider'
import { useMessage } from '../../lib/messages'
import { usePageTitle } from '../../lib/pageTitle'
import { idParam } from '../../lib/routeParams'
import { type Module, moduleQuery, useCreateModule, useUpdateModule } from './api'
import { ElementsEditor } from './ElementsEditor'
import {
  DURATION_UNITS,
  EMPTY_FORM,
  elementIndexOf,
  formFieldOf,
  formFromModule,
  MODULE_TYPES,
  type ModuleForm,
  moduleSchema,
  savePayload,
} from './moduleForm'

type Mode = { kind: 'new' } | { kind: 'edit' | 'createFrom'; source: Module }

/** NewTrainingModule (title addTrainingModule). */
export function NewModulePage() {
  const { t } = useTranslation()
  usePageTitle(t('modules.form.newTitle'))
  return <ModuleFormView mode={{ kind: 'new' }} initial={EMPTY_FORM} />
}

/** EditTrainingModule and CreateFromTrainingModule: the form of an existing module. */
function FromModule({ kind }: { kind: 'edit' | 'createFrom' }) {
  const { t } = useTranslation()
  const moduleId = idParam(useParams().moduleId)
  const { data: source, error } = useQuery({ ...moduleQuery(moduleId ?? 0), enabled: moduleId !== undefined })
  usePageTitle(moduleId === undefined || error ? undefined : t(kind === 'edit' ? 'modules.form.editTitle' : 'modules.form.createFromTitle'))
  if (moduleId === undefined) return <NotFoundPage />
  if (error) return <LoadFailure error={error} />
  if (!source) return <Loading />
  if (kind === 'edit' && !source.can.edit) return <EditRefused module={source} />
  return <ModuleFormView key={source.id} mode={{ kind, source }} initial={formFromModule(source)} />
}

/** An accepted path uses the module (or the server refuses edits for another reason): said, with the way back. */
function EditRefused({ module }: { module: Module }) {
  const { t } = useTranslation()
  return (
    <>
      <PageHeader title={t('modules.form.editTitle')} />
      <Alert
        severity="warning"
        action={
          <Button color="inherit" component={RouterLink} to={trainingModulePath(module.id)}>
            {t('modules.form.backToModule')}
          </Button>
        }
      >
        {t(module.usage.hasAcceptedTrainingPath ? 'modules.view.editRefused' : 'modules.form.editNotAllowed', { name: module.name })}
      </Alert>
    </>
  )
}

export const EditModulePage = () => <FromModule kind="edit" />
export const CreateFromModulePage = () => <FromModule kind="createFrom" />

function ModuleFormView({ mode, initial }: { mode: Mode; initial: ModuleForm }) {
  const { t } = useTranslation()
  const message = useMessage()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [stale, setStale] = useState(false)
  const [refused, setRefused] = useState<string>()
  const [elementErrors, setElementErrors] = useState<Record<number, string[]>>({})
  const create = useCreateModule()
  const update = useUpdateModule()
  const { control, handleSubmit, setError, formState } = useForm<ModuleForm>({
    resolver: zodResolver(moduleSchema),
    defaultValues: initial,
  })
  const periodic = useWatch({ control, name: 'periodic' })

  const showServerErrors = (error: Error) => {
    if (!isApiError(error)) return setRefused(error.message)
    const byElement: Record<number, string[]> = {}
    let shown = 0
    error.errors.forEach((fieldError) => {
      const index = elementIndexOf(fieldError.field)
      if (index !== undefined) {
        byElement[index] = [...(byElement[index] ?? []), fieldError.code]
        shown += 1
        return
      }
      const field = formFieldOf(fieldError.field)
      if (field) {
        setError(field, { type: 'server', message: fieldError.code }, { shouldFocus: shown === 0 })
        shown += 1
      }
    })
    setElementErrors(byElement)
    if (shown === 0) setRefused(message(error.message))
  }

  const save = (form: ModuleForm) => {
    setStale(false)
    setRefused(undefined)
    setElementErrors({})
    const body = savePayload(form)
    const onError = (error: Error) => {
      if (isApiError(error, 409)) {
        if (error.message === 'staleVersion') setStale(true)
        else setRefused(message(error.message))
      } else showServerErrors(error)
    }
    if (mode.kind === 'edit') {
      update.mutate({ moduleId: mode.source.id, body: { ...body, version: mode.source.version } }, { onSuccess: (saved) => void navigate(trainingModulePath(saved.id)), onError })
    } else {
      create.mutate(body, { onSuccess: ({ id }) => void navigate(trainingModulePath(id)), onError })
    }
  }

  const leave = () => void navigate(mode.kind === 'new' ? TRAINING_MODULES_PATH : trainingModulePath(mode.source.id))
  const title = t(`modules.form.${mode.kind}Title`)
  const hasErrors = Object.keys(formState.errors).length > 0 || Object.keys(elementErrors).length > 0

  return (
    <>
      <PageHeader title={title} />
      <FormFrame
        title={title}
        maxWidth={860}
        onSubmit={(event) => void handleSubmit(save)(event)}
        onCancel={leave}
        saving={create.isPending || update.isPending}
        source={mode.kind === 'createFrom' ? t('modules.form.source', { name: mode.source.name }) : undefined}
        hasErrors={hasErrors}
        refused={refused}
        stale={
          stale && mode.kind === 'edit'
            ? {
                message: t('modules.form.stale'),
                readAgainLabel: t('modules.form.readAgain'),
                onReadAgain: () => void queryClient.invalidateQueries({ queryKey: moduleQuery(mode.source.id).queryKey, exact: true }),
              }
            : undefined
        }
      >
        <TextInput control={control} name="name" label={t('modules.fields.name')} required autoFocus autoComplete="off" />
        <Controller
          control={control}
          name="moduleType"
          render={({ field: { ref, ...field }, fieldState }) => (
            <TextField
              {...field}
              inputRef={ref}
              select
              required
              label={t('modules.fields.moduleType')}
              fullWidth
              error={fieldState.error !== undefined}
              helperText={message(fieldState.error?.message) ?? ' '}
            >
              {MODULE_TYPES.map((type) => (
                <MenuItem key={type} value={type}>
                  {t(`modules.types.${type}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <TextInput control={control} name="goals" label={t('modules.fields.goals')} required multiline autoComplete="off" />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 2 }}>
          <Controller
            control={control}
            name="duration"
            render={({ field: { ref, ...field }, fieldState }) => (
              <TextField
                {...field}
                inputRef={ref}
                label={t('modules.fields.estimatedDuration')}
                autoComplete="off"
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                error={fieldState.error !== undefined}
                helperText={message(fieldState.error?.message) ?? t('modules.form.durationHelp')}
                sx={{ flex: 2 }}
              />
            )}
          />
          <Controller
            control={control}
            name="durationUnit"
            render={({ field: { ref, ...field } }) => (
              <TextField {...field} inputRef={ref} select label={t('modules.form.durationUnit')} helperText=" " sx={{ flex: 1 }}>
                {DURATION_UNITS.map((unit) => (
                  <MenuItem key={unit} value={unit}>
                    {t(`modules.units.${unit}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Stack>
        <Controller
          control={control}
          name="reference"
          render={({ field, fieldState }) => (
            <ReferenceAutocomplete
              type="module"
              label={t('modules.fields.reference')}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={fieldState.error?.message}
            />
          )}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 2 }} sx={{ alignItems: { sm: 'flex-start' } }}>
          <Controller
            control={control}
            name="periodic"
            render={({ field: { ref, value, onChange, ...field } }) => (
              <FormControlLabel
                sx={{ minHeight: 56, flexShrink: 0 }}
                control={<Switch {...field} slotProps={{ input: { ref } }} checked={value} onChange={(_event, checked) => onChange(checked)} />}
                label={t('modules.fields.periodic')}
              />
            )}
          />
          {periodic && (
            <Controller
              control={control}
              name="periodicity"
              render={({ field: { ref, ...field }, fieldState }) => (
                <TextField
                  {...field}
                  inputRef={ref}
                  required
                  label={t('modules.fields.periodicity')}
                  autoComplete="off"
                  slotProps={{
                    htmlInput: { inputMode: 'numeric' },
                    input: { endAdornment: <InputAdornment position="end">{t('modules.form.months')}</InputAdornment> },
                  }}
                  error={fieldState.error !== undefined}
                  helperText={message(fieldState.error?.message) ?? ' '}
                  fullWidth
                />
              )}
            />
          )}
        </Stack>
        <ThresholdSlider control={control} name="passThreshold" label={(value) => t('modules.form.threshold', { value })} valueText={(n) => t('modules.outOfTen', { value: n })} />
        <Controller
          control={control}
          name="elements"
          render={({ field, fieldState }) => (
            <ElementsEditor
              elements={field.value}
              onChange={(elements) => {
                field.onChange(elements)
                setElementErrors({})
              }}
              error={fieldState.error?.message}
              elementErrors={elementErrors}
              addButtonRef={field.ref}
            />
          )}
        />
      </FormFrame>
    </>
  )
}
