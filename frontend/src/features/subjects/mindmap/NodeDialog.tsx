import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormDialog } from '../../../components/FormDialog'
import { StaleVersionNotice } from '../../../components/StaleVersionNotice'
import { TextInput } from '../../../components/TextInput'
import { showServerFieldErrors } from '../../../lib/forms'
import { optionalText, text } from '../../../lib/text'
import { isStaleVersion, NODE_FIELDS, type NodeContent } from './api'

export const NAME_MAX = 300
export const TEXT_MAX = 5000
const TOO_LONG = 'string_too_long'

/** A node's name and text: the general text rule, the server's lengths. */
export const nodeSchema = z.object({
  name: text().refine((value) => value.length <= NAME_MAX, TOO_LONG),
  text: optionalText().refine((value) => value.length <= TEXT_MAX, TOO_LONG),
})

interface NodeDialogProps {
  title: string
  initial: NodeContent
  /** The name is shown but not changed: the main node's is the subject's, renamed by who may edit subjects. */
  nameReadOnly?: boolean
  submitting: boolean
  /** Sends the form; rejects with the server's error, which the dialog shows (the form keeps what was typed). */
  onSave: (content: NodeContent) => Promise<unknown>
  /** Reads the tree again after a stale version. */
  onReadAgain: () => void
  onClose: () => void
}

/**
 * Adds or edits a node. When someone changed the tree meanwhile (409), the tree is read again and the
 * dialog stays open with what was typed, so that saving again goes through with the new version.
 */
export function NodeDialog({ title, initial, nameReadOnly = false, submitting, onSave, onReadAgain, onClose }: NodeDialogProps) {
  const { t } = useTranslation()
  const { control, handleSubmit, setError, clearErrors, formState } = useForm<NodeContent>({
    resolver: zodResolver(nodeSchema),
    defaultValues: initial,
  })
  const stale = formState.errors.root?.type === 'stale'
  const submit = handleSubmit(async (content) => {
    clearErrors('root')
    try {
      await onSave(content)
    } catch (error) {
      if (isStaleVersion(error)) setError('root', { type: 'stale' })
      else showServerFieldErrors(error, NODE_FIELDS, setError)
    }
  })
  return (
    <FormDialog
      title={title}
      hasErrors={Object.keys(formState.errors).some((field) => field !== 'root')}
      submitting={submitting}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
    >
      {stale && <StaleVersionNotice message={t('subjects.mindMap.staleVersion')} readAgainLabel={t('subjects.mindMap.readAgain')} onReadAgain={onReadAgain} />}
      <TextInput
        control={control}
        name="name"
        label={t('subjects.mindMap.name')}
        required
        autoFocus={!nameReadOnly}
        readOnly={nameReadOnly}
        readOnlyHelp={t('subjects.mindMap.nameIsSubjects')}
      />
      <TextInput control={control} name="text" label={t('subjects.mindMap.text')} multiline autoFocus={nameReadOnly} />
    </FormDialog>
  )
}
