import { useMutation } from '@tanstack/react-query'
import { api } from '../../api/client'
import type { components } from '../../api/schema'

/** A signature as a signed record carries it (core/signatures on the server): the signer's printed
 * name as it was, when, what the signature means (a key of `signatures.meanings`), whether the record
 * changed since, and its revocation (reason: a key of `signatures.reasons`). */
export type SignatureOut = components['schemas']['SignatureOut']

export const REAUTHENTICATE_FIELDS = ['password']

/** The password again: the session counts as authenticated now (a signature then goes through). */
export const useReauthenticate = () =>
  useMutation({
    mutationFn: async (password: string) => {
      await api.POST('/backend/api/v2/account/reauthenticate', { body: { password } })
    },
    // The dialog shows a wrong password on its field, a throttled or impossible attempt above it.
    meta: { handledStatuses: [400, 429], formFields: REAUTHENTICATE_FIELDS },
  })
