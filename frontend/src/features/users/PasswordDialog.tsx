import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import type { User } from '../../api/types'
import { FormDialog } from '../../components/FormDialog'
import { TextInput } from '../../components/TextInput'
import { showServerFieldErrors } from '../../lib/forms'
import { PASSWORD_FIELDS, useChangePassword } from './api'
import { newPassword } from './UserDialog'

const schema = z
  .object({ password: newPassword(), confirmation: z.string() })
  .refine((form) => form.password === form.confirmation, { message: 'passwordsDoNotMatch', path: ['confirmation'] })
type PasswordForm = z.infer<typeof schema>

export function PasswordDialog({ user, onSaved, onClose }: { user: User; onSaved: () => void; onClose: () => void }) {
  const { t } = useTranslation()
  const change = useChangePassword()
  const { control, handleSubmit, setError, formState } = useForm<PasswordForm>({
    resolver: zodResolver(schema),
    defaultValues: { password: '', confirmation: '' },
  })
  const save = ({ password }: PasswordForm) =>
    change.mutate(
      { userId: user.id, password },
      { onSuccess: onSaved, onError: (error) => showServerFieldErrors(error, PASSWORD_FIELDS, setError) },
    )
  return (
    <FormDialog
      title={t('users.passwordTitle', { name: user.displayName })}
      hasErrors={Object.keys(formState.errors).length > 0}
      submitting={change.isPending}
      onSubmit={(event) => void handleSubmit(save)(event)}
      onClose={onClose}
    >
      <TextInput control={control} name="password" label={t('users.newPassword')} type="password" required autoFocus autoComplete="new-password" />
      <TextInput control={control} name="confirmation" label={t('users.confirmPassword')} type="password" required autoComplete="new-password" />
    </FormDialog>
  )
}
