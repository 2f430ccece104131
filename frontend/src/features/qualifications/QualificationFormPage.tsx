import { zodResolver } from '@hookform/resolvers/zod'
import InputAdornment from '@mui/material/InputAdornment'
import TextField from '@mui/material/TextField'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { type Control, Controller, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Navigate, useNavigate, useParams } from 'react-router'
import { isApiError } from '../../api/errors'
import { whoAmIQuery } from '../../api/queries'
import { FORBIDDEN_PATH, QUALIFICATIONS_PATH, qualificationPath } from '../../lib/paths'
import { FormSection } from '../../components/FormSection'
import { FormFrame } from '../../components/FormFrame'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { PageHeader } from '../../components/PageHeader'
import { SearchPicker } from '../../components/people/SearchPicker'
import { TextInput } from '../../components/TextInput'
import { showServerFieldErrors } from '../../lib/forms'
import { useMessage } from '../../lib/messages'
import { usePageTitle } from '../../lib/pageTitle'
import { idParam } from '../../lib/routeParams'
import { type Qualification, QUALIFICATION_FIELDS, qualificationQuery, useCreateQualification, useUpdateQualification } from './api'
import { CartographiesPicker, FunctionsPicker, ModulesPicker } from './pickers'
import { EMPTY_FORM, formFromQualification, type QualificationForm, qualificationSchema, savePayload } from './qualificationForm'

/** NewQualification: perm_TableauBord or perm_QualificationAdmin (the route checks). */
export function NewQualificationPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.newQualification'))
  return <QualificationFormView initial={EMPTY_FORM} />
}

/** EditQualification: qualification administrators only (can.edit), otherwise Forbidden. */
export function EditQualificationPage() {
  const { t } = useTranslation()
  const qualificationId = idParam(useParams().qualificationId)
  const { data: source, error } = useQuery({ ...qualificationQuery(qualificationId ?? 0), enabled: qualificationId !== undefined })
  usePageTitle(qualificationId === undefined || error ? undefined : t('pageTitles.editQualification'))
  if (qualificationId === undefined) return <NotFoundPage />
  if (error) return <LoadFailure error={error} />
  if (!source) return <Loading />
  if (!source.can.edit) return <Navigate to={FORBIDDEN_PATH} replace />
  return <QualificationFormView key={source.id} editing={source} initial={formFromQualification(source)} />
}

function QualificationFormView({ editing, initial }: { editing?: Qualification; initial: QualificationForm }) {
  const { t } = useTranslation()
  const message = useMessage()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [stale, setStale] = useState(false)
  const [refused, setRefused] = useState<string>()
  const create = useCreateQualification()
  const update = useUpdateQualification()
  const { control, handleSubmit, setError, formState } = useForm<QualificationForm>({
    resolver: zodResolver(qualificationSchema),
    defaultValues: initial,
  })
  const { data: user } = useQuery(whoAmIQuery)
  // The functions it opens, its requalification window and default referents: whom the server lets
  // change them (whoAmI's can; it refuses the others' changes, fieldNotEditable).
  const requalificationReadOnly = user?.can?.editRequalification !== true

  const onError = (error: Error) => {
    if (isApiError(error, 409) && error.message === 'staleVersion') setStale(true)
    else if (!showServerFieldErrors(error, QUALIFICATION_FIELDS, setError)) setRefused(message(error.message))
  }

  const save = (form: QualificationForm) => {
    setStale(false)
    setRefused(undefined)
    const body = savePayload(form)
    if (editing) {
      update.mutate({ qualificationId: editing.id, body: { ...body, version: editing.version } }, { onSuccess: (saved) => void navigate(qualificationPath(saved.id)), onError })
    } else {
      create.mutate(body, { onSuccess: (created) => void navigate(qualificationPath(created.id)), onError })
    }
  }

  const leave = () => void navigate(editing ? qualificationPath(editing.id) : QUALIFICATIONS_PATH)
  const title = t(editing ? 'qualifications.form.editTitle' : 'qualifications.form.newTitle')

  return (
    <>
      <PageHeader title={title} />
      <FormFrame
        title={title}
        maxWidth={920}
        onSubmit={(event) => void handleSubmit(save)(event)}
        onCancel={leave}
        saving={create.isPending || update.isPending}
        hasErrors={Object.keys(formState.errors).length > 0}
        refused={refused}
        stale={
          stale && editing
            ? {
                message: t('qualifications.form.stale'),
                readAgainLabel: t('qualifications.form.readAgain'),
                onReadAgain: () => void queryClient.invalidateQueries({ queryKey: qualificationQuery(editing.id).queryKey, exact: true }),
              }
            : undefined
        }
      >
        <FormSection title={t('qualifications.form.identity')}>
          <TextInput control={control} name="name" label={t('qualifications.fields.name')} required autoComplete="off" />
          <PickerField control={control} name="cartographies" label={t('qualifications.fields.cartographies')} help={t('qualifications.form.cartographiesHelp')} />
          <FunctionsField control={control} readOnly={requalificationReadOnly} />
        </FormSection>
        <FormSection title={t('qualifications.form.who')} help={t('qualifications.form.whoHelp')}>
          <PickerField control={control} name="qualifiableGroups" label={t('qualifications.fields.qualifiableGroups')} required />
        </FormSection>
        <FormSection title={t('qualifications.form.what')} help={t('qualifications.form.whatHelp')}>
          <PickerField control={control} name="modules" label={t('qualifications.fields.modules')} required />
        </FormSection>
        <FormSection title={t('qualifications.form.requalification')} help={t('qualifications.form.requalificationHelp')}>
          <RequalificationFields control={control} readOnly={requalificationReadOnly} />
        </FormSection>
      </FormFrame>
    </>
  )
}

type PickerName = 'cartographies' | 'qualifiableGroups' | 'modules'

/** One of the form's pickers, showing its error (or its help) under it. */
function PickerField({ control, name, label, required, help }: { control: Control<QualificationForm>; name: PickerName; label: string; required?: boolean; help?: string }) {
  const message = useMessage()
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const props = {
          label,
          required,
          value: field.value,
          onChange: field.onChange,
          onBlur: field.onBlur,
          inputRef: field.ref,
          error: fieldState.error !== undefined,
          helperText: message(fieldState.error?.message) ?? help ?? ' ',
        }
        if (name === 'cartographies') return <CartographiesPicker {...props} />
        if (name === 'modules') return <ModulesPicker {...props} />
        return <SearchPicker of="groups" multiple {...props} />
      }}
    />
  )
}

/** The functions it opens, among those of the cartographies chosen above. */
function FunctionsField({ control, readOnly }: { control: Control<QualificationForm>; readOnly: boolean }) {
  const { t } = useTranslation()
  const message = useMessage()
  const cartographies = useWatch({ control, name: 'cartographies' })
  return (
    <Controller
      control={control}
      name="functions"
      render={({ field, fieldState }) => (
        <FunctionsPicker
          label={t('qualifications.fields.functions')}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          cartographies={cartographies}
          readOnly={readOnly}
          error={fieldState.error !== undefined}
          helperText={message(fieldState.error?.message) ?? (readOnly ? t('qualifications.form.administratorsOnly') : t('qualifications.form.functionsHelp'))}
        />
      )}
    />
  )
}

/** The requalification window in days and the default referents of the paths Spot opens. */
function RequalificationFields({ control, readOnly }: { control: Control<QualificationForm>; readOnly: boolean }) {
  const { t } = useTranslation()
  const message = useMessage()
  const help = readOnly ? t('qualifications.form.administratorsOnly') : ' '
  return (
    <>
      <Controller
        control={control}
        name="requalificationWindowDays"
        render={({ field: { ref, ...field }, fieldState }) => (
          <TextField
            {...field}
            inputRef={ref}
            label={t('qualifications.fields.requalificationWindowDays')}
            autoComplete="off"
            slotProps={{
              htmlInput: { inputMode: 'numeric', readOnly },
              input: { endAdornment: <InputAdornment position="end">{t('qualifications.form.days')}</InputAdornment> },
            }}
            error={fieldState.error !== undefined}
            helperText={message(fieldState.error?.message) ?? help}
            sx={{ maxWidth: 280 }}
          />
        )}
      />
      <Controller
        control={control}
        name="defaultReferents"
        render={({ field, fieldState }) => (
          <SearchPicker
            of="people"
            multiple
            label={t('qualifications.fields.defaultReferents')}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            inputRef={field.ref}
            readOnly={readOnly}
            error={fieldState.error !== undefined}
            helperText={message(fieldState.error?.message) ?? help}
          />
        )}
      />
    </>
  )
}
