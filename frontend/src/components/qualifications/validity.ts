import type { TFunction } from 'i18next'
import { formatDate } from '../../lib/dates'
import type { ValidityState } from './types'

/** The server's sentinels (backend qualifications/validity.py): never validated, and permanent. */
export const NEVER_VALIDATED = -10000
export const PERMANENT = 10000
/** At 30 days or fewer a validity warns (spec 2 §9). */
export const WARN_DAYS = 30

/** The three states of the legend, in its order: more than a month, less than a month, not validated. */
export const VALIDITY_STATES: readonly ValidityState[] = ['good', 'warn', 'none']

/** The state of a number of remaining days, as the server computes it (spec 2 §4). */
export function validityState(remainingDays: number): ValidityState {
  if (remainingDays > WARN_DAYS) return 'good'
  if (remainingDays >= 0) return 'warn'
  return 'none'
}

/** The theme colour of a state: green, orange, grey. */
export function validityColour(state: ValidityState): 'success' | 'warning' | 'grey' {
  if (state === 'good') return 'success'
  if (state === 'warn') return 'warning'
  return 'grey'
}

export type Validity = {
  remainingDays: number
  validUntil: string | null
  /** The path in which a lapsed or missing validity is being obtained again, if any. */
  requalificationTrainingPath?: number | null
}

/**
 * The sentences saying how long a validity lasts (spec 2 §4 'Validity text'): permanent (10000 days or
 * more), never validated (-10000 or fewer), expired since N days, or N remaining days, each with the
 * expiration date; "in progress" is added to a validity that does not hold while a requalification path is open.
 */
export function validityTexts(validity: Validity, t: TFunction, language: string): string[] {
  const { remainingDays, validUntil } = validity
  const texts: string[] = []
  if (remainingDays >= PERMANENT) texts.push(t('qualificationStatus.validity.permanent'))
  else if (remainingDays <= NEVER_VALIDATED) texts.push(t('qualificationStatus.validity.neverValidated'))
  else {
    if (remainingDays < 0) texts.push(t('qualificationStatus.validity.expiredSince', { count: -remainingDays }))
    else texts.push(t('qualificationStatus.validity.remainingDays', { count: remainingDays }))
    if (validUntil) texts.push(t('qualificationStatus.validity.expirationDate', { date: formatDate(validUntil, language) }))
  }
  if (remainingDays < 0 && validity.requalificationTrainingPath != null) texts.push(t('qualificationStatus.validity.inProgress'))
  return texts
}

/** The validity as one line: its sentences joined. */
export function validityText(validity: Validity, t: TFunction, language: string): string {
  return validityTexts(validity, t, language).join(' · ')
}
