import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import AlertTitle from '@mui/material/AlertTitle'
import Box from '@mui/material/Box'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormDialog } from '../../components/FormDialog'
import { TextInput } from '../../components/TextInput'
import { useSignWithReauthentication } from '../../components/signatures/useSignWithReauthentication'
import { optionalText } from '../../lib/text'
import { usePathChanged, useSigningCall, validatePath } from './actions'
import type { Path } from './api'

const schema = z.object({ comment: optionalText() })
type CloseForm = z.infer<typeof schema>

interface ClosePathDialogProps {
  path: Path
  onClosed: () => void
  onClose: () => void
}

/**
 * Closing (validating) a finished path: what closing it now would warn about (spec 2 §8; a warning
 * does not prevent it), a comment, then the validator's signature, with the password asked again when
 * the server requires it.
 */
export function ClosePathDialog({ path, onClosed, onClose }: ClosePathDialogProps) {
  const { t } = useTranslation()
  const { changed } = usePathChanged(path.id)
  const { control, handleSubmit, getValues, formState } = useForm<CloseForm>({
    resolver: zodResolver(schema),
    defaultValues: { comment: '' },
  })
  const call = useSigningCall(path.id, () => validatePath(path.id, getValues().comment))
  const signature = useSignWithReauthentication(call, {
    onSigned: (closed) => {
      changed(closed)
      onClosed()
    },
  })
  return (
    <>
      <FormDialog
        title={t('trainingPath.closeDialog.title')}
        hasErrors={Object.keys(formState.errors).length > 0}
        submitting={signature.signing}
        submitLabel={t('trainingPath.closeDialog.submit')}
        onSubmit={(event) => void handleSubmit(() => signature.sign())(event)}
        onClose={onClose}
      >
        {path.closingWarnings.length > 0 && (
          <Alert severity="warning">
            <AlertTitle>{t('trainingPath.closeDialog.warningsTitle')}</AlertTitle>
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {path.closingWarnings.map((warning) => (
                <li key={warning}>{t(`trainingPath.closingWarnings.${warning}`)}</li>
              ))}
            </Box>
          </Alert>
        )}
        <Alert severity="info">{t('trainingPath.closeDialog.meaning')}</Alert>
        <TextInput control={control} name="comment" label={t('trainingPath.closeDialog.comment')} multiline autoComplete="off" />
      </FormDialog>
      {/* Outside the form: the password dialog's submit must not reach this one through the portal. */}
      {signature.dialog}
    </>
  )
}
