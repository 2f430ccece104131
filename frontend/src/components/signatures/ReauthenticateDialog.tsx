import Alert from '@mui/material/Alert'
import Typography from '@mui/material/Typography'
import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { isApiError } from '../../api/errors'
import { useMessage, useThrottledMessage } from '../../lib/messages'
import { FormDialog } from '../FormDialog'
import { TextInput } from '../TextInput'
import { useReauthenticate } from './api'

const schema = z.object({ password: z.string().min(1, 'emptyFieldError') })
type ReauthenticateForm = z.infer<typeof schema>

/** Asks the signed-in user for their password again before a signature (the server requires a proof
 * of identity less than 5 minutes old); `onAuthenticated` once the server accepted it. A wrong password
 * shows on the field and the dialog stays open. */
export function ReauthenticateDialog({ onAuthenticated, onClose }: { onAuthenticated: () => void; onClose: () => void }) {
  const { t } = useTranslation()
  const message = useMessage()
  const throttledMessage = useThrottledMessage()
  const reauthenticate = useReauthenticate()
  const [failure, setFailure] = useState<string>()
  const { control, handleSubmit, setError, formState } = useForm<ReauthenticateForm>({
    resolver: zodResolver(schema),
    defaultValues: { password: '' },
  })

  const failed = (error: Error) => {
    if (isApiError(error, 429)) setFailure(throttledMessage(error))
    else if (isApiError(error, 400) && error.errors.some((e) => e.field === 'password'))
      setError('password', { type: 'server', message: t('signatures.reauthenticate.wrongPassword') }, { shouldFocus: true })
    else if (isApiError(error, 400) && error.message === 'reauthenticationByProviderNeeded') setFailure(t('signatures.reauthenticate.byProviderNeeded'))
    else if (isApiError(error, 400)) setFailure(message(error.message))
  }
  const confirm = ({ password }: ReauthenticateForm) => {
    setFailure(undefined)
    reauthenticate.mutate(password, { onSuccess: onAuthenticated, onError: failed })
  }

  return (
    <FormDialog
      title={t('signatures.reauthenticate.title')}
      hasErrors={Object.keys(formState.errors).length > 0}
      submitting={reauthenticate.isPending}
      submitLabel={t('signatures.reauthenticate.submit')}
      onSubmit={(event) => void handleSubmit(confirm)(event)}
      onClose={onClose}
    >
      <Typography variant="body2">{t('signatures.reauthenticate.explanation')}</Typography>
      <TextInput
        control={control}
        name="password"
        label={t('signatures.reauthenticate.password')}
        type="password"
        required
        autoFocus
        autoComplete="current-password"
      />
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
    </FormDialog>
  )
}
