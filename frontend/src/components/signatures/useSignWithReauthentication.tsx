import { useMutation } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { isReauthenticationRequired } from '../../api/errors'
import type { ErrorHandlingMeta } from '../../api/errorReports'
import { ReauthenticateDialog } from './ReauthenticateDialog'

interface SignOptions<T> {
  /** The signed record as the server answered it: update the caches that show it. */
  onSigned?: (result: T) => void
  /** Failures the page shows itself (the others go to the global error display). */
  meta?: ErrorHandlingMeta
}

export interface SignWithReauthentication {
  /** Signs; asks for the password first if the server requires it, then signs again. */
  sign: () => void
  /** A signature is on its way to the server. */
  signing: boolean
  /** The password dialog while it is open: render it next to the sign button. */
  dialog: ReactNode
}

/**
 * Runs `sign` (a plain call to a sign route, e.g. `() => signMediation(id)`, not a mutation) as a
 * mutation. When the server answers 401 reauthenticationRequired (the session's last proof of identity
 * is more than 5 minutes old), opens ReauthenticateDialog; once the password is accepted, signs again.
 * Cancelling the dialog signs nothing.
 */
export function useSignWithReauthentication<T>(sign: () => Promise<T>, { onSigned, meta }: SignOptions<T> = {}): SignWithReauthentication {
  const [asking, setAsking] = useState(false)
  const signature = useMutation({
    mutationFn: sign,
    // The password request is this hook's own answer to a 401 reauthenticationRequired; any other 401
    // has ended the session already (api/client), and the global handler leaves those alone.
    meta: { ...meta, handledStatuses: [...(meta?.handledStatuses ?? []), 401] },
    onSuccess: (result) => onSigned?.(result),
    onError: (error) => {
      if (isReauthenticationRequired(error)) setAsking(true)
    },
  })
  const dialog = asking ? (
    <ReauthenticateDialog
      onAuthenticated={() => {
        setAsking(false)
        signature.mutate()
      }}
      onClose={() => setAsking(false)}
    />
  ) : null
  return { sign: () => signature.mutate(), signing: signature.isPending, dialog }
}
