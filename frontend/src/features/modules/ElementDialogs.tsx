import { zodResolver } from '@hookform/resolvers/zod'
import OpenInNew from '@mui/icons-material/OpenInNew'
import Button from '@mui/material/Button'
import { useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormDialog } from '../../components/FormDialog'
import { TextInput } from '../../components/TextInput'
import { text } from '../../lib/text'
import { canTestUrl, isValidUrl, NOT_A_VALID_URL } from './moduleForm'

const mediationSchema = z.object({ title: text(), description: text() })
type MediationElement = z.infer<typeof mediationSchema>

interface ElementDialogProps<T> {
  initial?: T
  onSave: (element: T) => void
  onClose: () => void
}

/** A mediation element: what the referent will run, a title and a description (spec 2 §5). */
export function MediationElementDialog({ initial, onSave, onClose }: ElementDialogProps<MediationElement>) {
  const { t } = useTranslation()
  const { control, handleSubmit, formState } = useForm<MediationElement>({
    resolver: zodResolver(mediationSchema),
    defaultValues: initial ?? { title: '', description: '' },
  })
  return (
    <FormDialog
      title={t(initial ? 'modules.elements.editMediation' : 'modules.elements.newMediation')}
      hasErrors={Object.keys(formState.errors).length > 0}
      submitting={false}
      submitLabel={t('modules.elements.apply')}
      onSubmit={(event) => {
        event.stopPropagation()
        void handleSubmit(onSave)(event)
      }}
      onClose={onClose}
    >
      <TextInput control={control} name="title" label={t('modules.elements.title')} required autoFocus autoComplete="off" />
      <TextInput control={control} name="description" label={t('modules.elements.description')} required multiline autoComplete="off" />
    </FormDialog>
  )
}

const urlSchema = z.object({
  url: text().refine((value) => value.trim() === '' || value !== value.trim() || isValidUrl(value), NOT_A_VALID_URL),
  label: text(),
})
type UrlElement = z.infer<typeof urlSchema>

/** A url element: an http(s) address and its label; Test opens it once both are valid (spec 2 §2). */
export function UrlElementDialog({ initial, onSave, onClose }: ElementDialogProps<UrlElement>) {
  const { t } = useTranslation()
  const { control, handleSubmit, formState } = useForm<UrlElement>({
    resolver: zodResolver(urlSchema),
    defaultValues: initial ?? { url: '', label: '' },
  })
  const [url, label] = useWatch({ control, name: ['url', 'label'] })
  return (
    <FormDialog
      title={t(initial ? 'modules.elements.editUrl' : 'modules.elements.newUrl')}
      hasErrors={Object.keys(formState.errors).length > 0}
      submitting={false}
      submitLabel={t('modules.elements.apply')}
      onSubmit={(event) => {
        event.stopPropagation()
        void handleSubmit(onSave)(event)
      }}
      onClose={onClose}
    >
      <TextInput control={control} name="url" label={t('modules.elements.url')} required autoFocus autoComplete="off" />
      <TextInput control={control} name="label" label={t('modules.elements.label')} required autoComplete="off" />
      {canTestUrl(url, label) && (
        <Button href={url} target="_blank" rel="noopener noreferrer" startIcon={<OpenInNew />} sx={{ alignSelf: 'flex-start' }}>
          {t('modules.elements.test')}
        </Button>
      )}
    </FormDialog>
  )
}
