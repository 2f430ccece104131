import Alert from '@mui/material/Alert'
import Snackbar from '@mui/material/Snackbar'

const NOTICE_MS = 4000

/** A short confirmation that something was done. */
export function Notice({ message, onClose }: { message: string | undefined; onClose: () => void }) {
  return (
    <Snackbar open={message !== undefined} autoHideDuration={NOTICE_MS} onClose={onClose} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Alert severity="success" variant="filled" onClose={onClose}>
        {message}
      </Alert>
    </Snackbar>
  )
}
