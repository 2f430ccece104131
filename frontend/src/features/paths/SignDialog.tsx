import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Rating from '@mui/material/Rating'
import Typography from '@mui/material/Typography'
import { useId } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormDialog } from '../../components/FormDialog'
import { TextInput } from '../../components/TextInput'
import { useSignWithReauthentication } from '../../components/signatures/useSignWithReauthentication'
import { optionalText } from '../../lib/text'
import { type SignOff, usePathChanged, useSigningCall } from './actions'
import type { Path } from './api'

const schema = z.object({ satisfaction: z.number().int().min(1).max(5), comment: optionalText() })

interface SignDialogProps {
  pathId: number
  /** The dialog's title: what is signed (the path, or a module). */
  title: string
  /** What signing means, said before the button. */
  meaning: string
  /** The sign route. */
  sign: (body: SignOff) => Promise<Path>
  onSigned: () => void
  onClose: () => void
}

/**
 * The learner's sign-off (spec 2 §9): satisfaction in stars from 1 to 5 (1 by default), a comment, then
 * the signature; when the server asks for the password again, its dialog opens and the signature is
 * sent again once it is accepted.
 */
export function SignDialog({ pathId, title, meaning, sign, onSigned, onClose }: SignDialogProps) {
  const { t } = useTranslation()
  const satisfactionLabel = useId()
  const { changed } = usePathChanged(pathId)
  const { control, handleSubmit, getValues, formState } = useForm<SignOff>({
    resolver: zodResolver(schema),
    defaultValues: { satisfaction: 1, comment: '' },
  })
  const call = useSigningCall(pathId, () => sign(getValues()))
  const signature = useSignWithReauthentication(call, {
    onSigned: (path) => {
      changed(path)
      onSigned()
    },
  })
  return (
    <>
      <FormDialog
        title={title}
        hasErrors={Object.keys(formState.errors).length > 0}
        submitting={signature.signing}
        submitLabel={t('trainingPath.signDialog.submit')}
        onSubmit={(event) => void handleSubmit(() => signature.sign())(event)}
        onClose={onClose}
      >
        <Alert severity="info">{meaning}</Alert>
        <Box>
          <Typography id={satisfactionLabel} variant="body2" color="text.secondary" component="div">
            {t('trainingPath.signDialog.satisfaction')}
          </Typography>
          <Controller
            control={control}
            name="satisfaction"
            render={({ field }) => (
              <Rating
                name={field.name}
                value={field.value}
                max={5}
                // A star rating on 5 that never goes below 1: clicking the chosen star again keeps it.
                onChange={(_event, value) => field.onChange(value !== null && Number.isFinite(value) ? value : field.value)}
                getLabelText={(value) => t('trainingPath.signDialog.stars', { count: value })}
                aria-labelledby={satisfactionLabel}
                size="large"
              />
            )}
          />
        </Box>
        <TextInput control={control} name="comment" label={t('trainingPath.signDialog.comment')} multiline autoComplete="off" />
      </FormDialog>
      {/* Outside the form: the password dialog's submit must not reach this one through the portal. */}
      {signature.dialog}
    </>
  )
}
