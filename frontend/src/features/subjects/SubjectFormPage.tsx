import { zodResolver } from '@hookform/resolvers/zod'
import Autocomplete from '@mui/material/Autocomplete'
import MenuItem from '@mui/material/MenuItem'
import TextField from '@mui/material/TextField'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { type Control, Controller, type FieldPath, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { isApiError } from '../../api/errors'
import { activitiesQuery, cartographiesQuery, functionsQuery, subActivitiesQuery } from '../../api/mapping'
import { functionPath, subjectPath, SUBJECTS_PATH } from '../../lib/paths'
import { FormFrame } from '../../components/FormFrame'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { PageHeader } from '../../components/PageHeader'
import { TextInput } from '../../components/TextInput'
import { showServerFieldErrors } from '../../lib/forms'
import { useMessage } from '../../lib/messages'
import { usePageTitle } from '../../lib/pageTitle'
import { idParam } from '../../lib/routeParams'
import { type Subject, SUBJECT_FIELDS, SUBJECT_TYPES, subjectQuery, useCreateFromSubject, useCreateSubject, useUpdateSubject } from './api'
import { formFromQuery, formFromSubject, INVALID_VALUE, savePayload, type SubjectForm, subjectSchema } from './subjectForm'

type Mode = { kind: 'new' } | { kind: 'edit' | 'createFrom'; source: Subject }

export function NewSubjectPage() {
  const { t } = useTranslation()
  const [query] = useSearchParams()
  usePageTitle(t('pageTitles.newSubject'))
  return <SubjectFormView mode={{ kind: 'new' }} initial={formFromQuery(query)} />
}

/** EditSubject and CreateFromSubject: the form of an existing subject. */
function FromSubject({ kind }: { kind: 'edit' | 'createFrom' }) {
  const { t } = useTranslation()
  const subjectId = idParam(useParams().subjectId)
  const { data: source, error } = useQuery({ ...subjectQuery(subjectId ?? 0), enabled: subjectId !== undefined })
  usePageTitle(subjectId === undefined || error ? undefined : t(kind === 'edit' ? 'pageTitles.editSubject' : 'pageTitles.createFromSubject'))
  if (subjectId === undefined) return <NotFoundPage />
  if (error) return <LoadFailure error={error} />
  if (!source) return <Loading />
  return <SubjectFormView key={source.id} mode={{ kind, source }} initial={formFromSubject(source, { keepName: kind === 'edit' })} />
}

export const EditSubjectPage = () => <FromSubject kind="edit" />
export const CreateFromSubjectPage = () => <FromSubject kind="createFrom" />

interface Option {
  id: number
  name: string
}

function SubjectFormView({ mode, initial }: { mode: Mode; initial: SubjectForm }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [stale, setStale] = useState(false)
  const create = useCreateSubject()
  const update = useUpdateSubject()
  const createFrom = useCreateFromSubject()
  const { control, handleSubmit, setError, setValue, formState } = useForm<SubjectForm>({
    resolver: zodResolver(subjectSchema),
    defaultValues: initial,
  })
  const cartographyId = useWatch({ control, name: 'cartographyId' })
  const activityId = useWatch({ control, name: 'activityId' })
  const cartographies = useQuery(cartographiesQuery)
  const functions = useQuery({ ...functionsQuery(cartographyId ?? 0), enabled: cartographyId !== null })
  const activities = useQuery({ ...activitiesQuery(cartographyId ?? 0), enabled: cartographyId !== null })
  const topActivity = activities.data?.find((activity) => activity.id === activityId)
  const subActivities = useQuery({ ...subActivitiesQuery(activityId ?? 0), enabled: topActivity?.hasSubActivities === true })
  const cartographyOptions: Option[] = (cartographies.data ?? []).map((c) => ({
    id: c.id,
    name: t('siteAndCartography', { site: c.site.name, cartography: c.name }),
  }))

  /** A prefilled or kept id that is not among the choices cannot be saved. */
  const unknownChoices = (form: SubjectForm): FieldPath<SubjectForm>[] => {
    const checks: [FieldPath<SubjectForm>, number | null, Option[] | undefined][] = [
      ['cartographyId', form.cartographyId, cartographyOptions],
      ['functionId', form.functionId, functions.data],
      ['activityId', form.activityId, activities.data],
      ['subActivityId', form.subActivityId, subActivities.data],
    ]
    return checks
      .filter(([, id, options]) => id !== null && options !== undefined && !options.some((option) => option.id === id))
      .map(([field]) => field)
  }

  const save = (form: SubjectForm) => {
    setStale(false)
    const unknown = unknownChoices(form)
    if (unknown.length > 0) {
      unknown.forEach((field, index) => setError(field, { type: 'invalid', message: INVALID_VALUE }, { shouldFocus: index === 0 }))
      return
    }
    const body = savePayload(form)
    const handlers = {
      onSuccess: ({ id }: { id: number }) => void navigate(subjectPath(id)),
      onError: (error: Error) => {
        if (isApiError(error, 409)) setStale(true)
        else showServerFieldErrors(error, SUBJECT_FIELDS, setError)
      },
    }
    if (mode.kind === 'new') create.mutate(body, handlers)
    else if (mode.kind === 'edit') update.mutate({ subjectId: mode.source.id, body: { ...body, version: mode.source.version } }, handlers)
    else createFrom.mutate({ subjectId: mode.source.id, body }, handlers)
  }

  const leave = () => {
    if (mode.kind !== 'new') return void navigate(subjectPath(mode.source.id))
    return void navigate(initial.functionId !== null ? functionPath(initial.functionId) : SUBJECTS_PATH)
  }

  const title = t(`subjects.form.${mode.kind}Title`)

  return (
    <>
      <PageHeader title={title} />
      <FormFrame
        title={title}
        maxWidth={760}
        onSubmit={(event) => void handleSubmit(save)(event)}
        onCancel={leave}
        saving={create.isPending || update.isPending || createFrom.isPending}
        source={mode.kind === 'createFrom' ? t('subjects.form.source', { name: mode.source.name }) : undefined}
        hasErrors={Object.keys(formState.errors).length > 0}
        stale={
          stale && mode.kind === 'edit'
            ? {
                message: t('subjects.form.stale'),
                readAgainLabel: t('subjects.form.readAgain'),
                onReadAgain: () => void queryClient.invalidateQueries({ queryKey: subjectQuery(mode.source.id).queryKey, exact: true }),
              }
            : undefined
        }
      >
        <TextInput control={control} name="name" label={t('subjects.form.name')} required autoFocus autoComplete="off" />
        <Controller
          control={control}
          name="type"
          render={({ field: { ref, ...field } }) => (
            <TextField {...field} inputRef={ref} select label={t('subjects.form.type')} fullWidth helperText=" ">
              {SUBJECT_TYPES.map((type) => (
                <MenuItem key={type} value={type}>
                  {t(`subjects.types.${type}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <ChoiceInput
          control={control}
          name="cartographyId"
          label={t('subjects.form.cartography')}
          options={cartographyOptions}
          loading={cartographies.isLoading}
          disabled={mode.kind === 'edit'}
          helper={mode.kind === 'edit' ? t('subjects.form.cartographyLocked') : undefined}
          required
          onChosen={() => {
            setValue('functionId', null)
            setValue('activityId', null)
            setValue('subActivityId', null)
          }}
        />
        <ChoiceInput
          control={control}
          name="functionId"
          label={t('subjects.form.function')}
          options={functions.data ?? []}
          loading={functions.isLoading}
          disabled={cartographyId === null}
          required
        />
        <ChoiceInput
          control={control}
          name="activityId"
          label={t('subjects.form.activity')}
          options={activities.data ?? []}
          loading={activities.isLoading}
          disabled={cartographyId === null}
          required
          onChosen={() => setValue('subActivityId', null)}
        />
        <ChoiceInput
          control={control}
          name="subActivityId"
          label={t('subjects.form.subActivity')}
          options={subActivities.data ?? []}
          loading={subActivities.isLoading}
          disabled={!topActivity?.hasSubActivities}
          helper={topActivity && !topActivity.hasSubActivities ? t('subjects.form.noSubActivity') : undefined}
        />
      </FormFrame>
    </>
  )
}

interface ChoiceInputProps {
  control: Control<SubjectForm>
  name: 'cartographyId' | 'functionId' | 'activityId' | 'subActivityId'
  label: string
  options: Option[]
  loading: boolean
  disabled?: boolean
  required?: boolean
  helper?: string
  /** Called after the user picks (or clears) a value, to reset what depends on it. */
  onChosen?: () => void
}

/** An autocomplete holding the id of one of `options`. */
function ChoiceInput({ control, name, label, options, loading, disabled, required, helper, onChosen }: ChoiceInputProps) {
  const { t } = useTranslation()
  const message = useMessage()
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Autocomplete
          options={options}
          value={options.find((option) => option.id === field.value) ?? null}
          onChange={(_event, chosen) => {
            field.onChange(chosen?.id ?? null)
            onChosen?.()
          }}
          onBlur={field.onBlur}
          getOptionLabel={(option) => option.name}
          isOptionEqualToValue={(option, value) => option.id === value.id}
          loading={loading}
          disabled={disabled}
          noOptionsText={t('subjects.form.noOption')}
          loadingText={t('common.loading')}
          renderInput={(params) => (
            <TextField
              {...params}
              inputRef={field.ref}
              label={label}
              required={required}
              error={fieldState.error !== undefined}
              helperText={message(fieldState.error?.message) ?? helper ?? ' '}
            />
          )}
        />
      )}
    />
  )
}
