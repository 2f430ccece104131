import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'

/** A form's save answered 409 staleVersion: someone saved the item meanwhile. What the user typed stays
 * in the form; reading the item again gives the form its new version, and the next save goes through. */
export function StaleVersionNotice({ message, readAgainLabel, onReadAgain }: { message: string; readAgainLabel: string; onReadAgain: () => void }) {
  return (
    <Alert
      severity="warning"
      action={
        <Button color="inherit" size="small" onClick={onReadAgain}>
          {readAgainLabel}
        </Button>
      }
    >
      {message}
    </Alert>
  )
}
