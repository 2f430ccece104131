import type { TFunction } from 'i18next'
import type { components } from '../api/schema'
import { formatDate, formatDateTime } from './dates'
import { cartographyQualificationDashboardPath, JOBS_PATH, mediationPath, subjectPath, trainingPathPath, userQualificationDashboardPath } from './paths'

export type Alert = components['schemas']['Alert']

/** The page where each kind of target is acted on; an area adding a target type adds its address here. */
const TARGET_PATHS: Record<Alert['target']['type'], (id: number) => string> = {
  subject: subjectPath,
  mediation: mediationPath,
  trainingPath: trainingPathPath,
  userQualifications: userQualificationDashboardPath,
  cartographyQualifications: cartographyQualificationDashboardPath,
  job: () => JOBS_PATH,
}

/**
 * What tells one alert from another (a list's key): its kind, target and words, since one target may
 * await several things of a kind (two modules of a path to grade, two functions of a cartography
 * falling under their minimum).
 */
export const alertKey = (alert: Alert) => `${alert.kind}:${alert.target.type}:${alert.target.id}:${JSON.stringify(alert.args)}`

/** The address of the page where an alert is acted on (the bell, My dashboard). */
export const alertPath = (target: Alert['target']) => TARGET_PATHS[target.type](target.id)

/**
 * When an alert is dated: an expiring qualification by its last valid day (the day its alert came
 * up would read as an expiry date), a function falling under its minimum by the day it falls, any
 * other by its own date, `withTime` or not.
 */
export function alertWhen(alert: Alert, t: TFunction, language: string, withTime: boolean): string {
  const { validUntil, fallsOn } = alert.args
  if (typeof validUntil === 'string') return t('alerts.validUntil', { date: formatDate(validUntil, language) })
  if (typeof fallsOn === 'string') return t('alerts.fallsOn', { date: formatDate(fallsOn, language) })
  return withTime ? formatDateTime(alert.date, language) : formatDate(alert.date, language)
}
