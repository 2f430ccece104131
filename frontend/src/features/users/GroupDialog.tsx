import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import type { GroupRef } from '../../api/types'
import { FormDialog } from '../../components/FormDialog'
import { TextInput } from '../../components/TextInput'
import { showServerFieldErrors } from '../../lib/forms'
import { text } from '../../lib/text'
import { GROUP_FIELDS, useCreateGroup, useRenameGroup } from './api'

const schema = z.object({ name: text() })
type GroupForm = z.infer<typeof schema>

/** Creates a group, or renames `group`. */
export function GroupDialog({ group, onSaved, onClose }: { group?: GroupRef; onSaved: () => void; onClose: () => void }) {
  const { t } = useTranslation()
  const create = useCreateGroup()
  const rename = useRenameGroup()
  const { control, handleSubmit, setError, formState } = useForm<GroupForm>({
    resolver: zodResolver(schema),
    defaultValues: { name: group?.name ?? '' },
  })
  const save = ({ name }: GroupForm) => {
    const handlers = { onSuccess: onSaved, onError: (error: Error) => showServerFieldErrors(error, GROUP_FIELDS, setError) }
    if (group) rename.mutate({ groupId: group.id, name }, handlers)
    else create.mutate(name, handlers)
  }
  return (
    <FormDialog
      title={group ? t('groups.renameTitle', { name: group.name }) : t('groups.createTitle')}
      hasErrors={Object.keys(formState.errors).length > 0}
      submitting={create.isPending || rename.isPending}
      onSubmit={(event) => void handleSubmit(save)(event)}
      onClose={onClose}
    >
      <TextInput control={control} name="name" label={t('groups.name')} required autoFocus autoComplete="off" />
    </FormDialog>
  )
}
