import Alert from '@mui/material/Alert'
import Snackbar from '@mui/material/Snackbar'

const NOTICE_MS = 4000

/** A short confirmation that something was done, or (warning) that it was not and why. */
export function Notice({
  message,
  onClose,
  severity = 'success',
}: {
  message: string | undefined
  onClose: () => void
  severity?: 'success' | 'warning'
}) {
  return (
    <Snackbar open={message !== undefined} autoHideDuration={NOTICE_MS} onClose={onClose} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Alert severity={severity} variant="filled" onClose={onClose}>
        {message}
      </Alert>
    </Snackbar>
  )
}
