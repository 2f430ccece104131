import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import Stack from '@mui/material/Stack'
import type { FormEventHandler, ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

interface FormDialogProps {
  title: string
  /** The form holds errors: saving is refused until they are corrected. */
  hasErrors: boolean
  submitting: boolean
  onSubmit: FormEventHandler<HTMLFormElement>
  onClose: () => void
  children: ReactNode
  /** The submit button's text when it does more than save (e.g. sign); Save by default. */
  submitLabel?: string
}

export const DIALOG_WIDTH = 600

/** A 600-px dialog around a form, with Cancel and Save. */
export function FormDialog({ title, hasErrors, submitting, onSubmit, onClose, children, submitLabel }: FormDialogProps) {
  const { t } = useTranslation()
  return (
    <Dialog open onClose={onClose} maxWidth={false} slotProps={{ paper: { sx: { width: DIALOG_WIDTH, maxWidth: '100%' } } }}>
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={1} sx={{ pt: 1 }}>
            {children}
            {hasErrors && <Alert severity="error">{t('codes.atLeastOneErrorLeft')}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="submit" variant="contained" loading={submitting}>
            {submitLabel ?? t('actions.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  )
}
