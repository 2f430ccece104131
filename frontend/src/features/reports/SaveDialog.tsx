import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import FormControlLabel from '@mui/material/FormControlLabel'
import Switch from '@mui/material/Switch'
import { useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { isApiError } from '../../api/errors'
import { FormDialog } from '../../components/FormDialog'
import { TextInput } from '../../components/TextInput'
import { useMessage } from '../../lib/messages'
import { text } from '../../lib/text'
import { type ReportConfiguration, type ReportRequest, useSaveConfiguration } from './api'
import { MAX_NAME_LENGTH } from './reportForm'

const nameSchema = z.object({ name: text().max(MAX_NAME_LENGTH, 'string_too_long') })

interface SaveDialogProps {
  request: ReportRequest
  configurations: ReportConfiguration[]
  /** The name the form was loaded from, offered first. */
  initialName?: string
  onSaved: (name: string) => void
  /** The server refused the parameters themselves (not the name): the page shows why on its fields. */
  onRefused: (error: Error) => void
  onClose: () => void
}

/**
 * Save parameters (spec 2 §5): a name (general text rule) and whether the set is the user's default. An
 * existing name is overwritten; its default flag is shown, and kept unless the switch is changed.
 */
export function SaveDialog({ request, configurations, initialName = '', onSaved, onRefused, onClose }: SaveDialogProps) {
  const { t } = useTranslation()
  const message = useMessage()
  const save = useSaveConfiguration()
  const [chosenDefault, setChosenDefault] = useState<boolean | null>(null)
  const [refused, setRefused] = useState<string>()
  const { control, handleSubmit, setError, formState } = useForm<{ name: string }>({ resolver: zodResolver(nameSchema), defaultValues: { name: initialName } })
  const name = useWatch({ control, name: 'name' })
  const existing = configurations.find((configuration) => configuration.name === name)
  const isDefault = chosenDefault ?? existing?.isDefault ?? false

  const submit = ({ name }: { name: string }) => {
    setRefused(undefined)
    save.mutate(
      { ...request, name, isDefault: chosenDefault },
      {
        onSuccess: () => onSaved(name),
        onError: (error) => {
          const onName = isApiError(error) ? error.errors.find((fieldError) => fieldError.field === 'name') : undefined
          if (onName) setError('name', { type: 'server', message: onName.code }, { shouldFocus: true })
          else if (isApiError(error) && error.errors.length > 0) onRefused(error)
          else setRefused(message(error.message))
        },
      },
    )
  }

  return (
    <FormDialog
      title={t('reports.save.title')}
      hasErrors={Object.keys(formState.errors).length > 0}
      submitting={save.isPending}
      onSubmit={(event) => void handleSubmit(submit)(event)}
      onClose={onClose}
    >
      <TextInput control={control} name="name" label={t('reports.save.name')} required autoFocus autoComplete="off" />
      {existing && <Alert severity="info">{t('reports.save.overwrites')}</Alert>}
      <FormControlLabel control={<Switch checked={isDefault} onChange={(event) => setChosenDefault(event.target.checked)} />} label={t('reports.save.isDefault')} />
      {refused && <Alert severity="error">{refused}</Alert>}
    </FormDialog>
  )
}
