import type { FieldValues, Path, UseFormSetError } from 'react-hook-form'
import { isApiError } from '../api/errors'

/** Puts the server's per-field errors on the form's fields; true when there were some. */
export function showServerFieldErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly string[],
  setError: UseFormSetError<T>,
): boolean {
  if (!isApiError(error)) return false
  const known = error.errors.filter((e) => fields.includes(e.field))
  known.forEach((e, index) => setError(e.field as Path<T>, { type: 'server', message: e.code }, { shouldFocus: index === 0 }))
  return known.length > 0
}
