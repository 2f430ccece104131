import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import { useTranslation } from 'react-i18next'

interface ConfirmDialogProps {
  title: string
  message: string
  confirmLabel: string
  /** The button that closes it without acting; "Cancel" unless the action itself is a cancellation. */
  dismissLabel?: string
  pending?: boolean
  onConfirm: () => void
  onClose: () => void
}

/** Asks before an irreversible action; the confirm button is drawn as dangerous. */
export function ConfirmDialog({ title, message, confirmLabel, dismissLabel, pending = false, onConfirm, onClose }: ConfirmDialogProps) {
  const { t } = useTranslation()
  return (
    <Dialog open onClose={onClose} maxWidth={false} slotProps={{ paper: { sx: { width: 450, maxWidth: '100%' } } }}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{dismissLabel ?? t('actions.cancel')}</Button>
        <Button variant="contained" color="error" loading={pending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  )
}
