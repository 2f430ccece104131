import { useTranslation } from 'react-i18next'
import { formatDateTime } from './status'

/** A duration in whole minutes as "2 h 05 min", or "45 min" under an hour. */
export function useDurationText(): (minutes: number) => string {
  const { t } = useTranslation()
  return (total) => {
    const hours = Math.floor(total / 60)
    const minutes = total % 60
    return hours > 0
      ? t('mediations.view.hoursMinutes', { hours, minutes: String(minutes).padStart(2, '0') })
      : t('mediations.view.minutes', { minutes })
  }
}

/** The label of a history item type (subject, function…); an unknown one is shown as it came. */
export function useEntityTypeLabel(): (entityType: string) => string {
  const { t, i18n } = useTranslation()
  return (entityType) => {
    const key = `mediations.report.entityTypes.${entityType}`
    return i18n.exists(key) ? t(key) : entityType
  }
}

interface ActionLine {
  date: string
  mode: string
  entityType: string
  entityName: string
}

/**
 * A tracked action as one line in the reader's language: date and time, read or write, the item's
 * type and name. A report item keeps this text as its content (spec 1 §3).
 */
export function useActionLine(): (action: ActionLine) => string {
  const { t, i18n } = useTranslation()
  const typeLabel = useEntityTypeLabel()
  return ({ date, mode, entityType, entityName }) =>
    t('mediations.report.line', {
      date: formatDateTime(date, i18n.language),
      mode: t(mode === 'R' ? 'mediations.report.modes.read' : 'mediations.report.modes.write'),
      type: typeLabel(entityType),
      name: entityName,
    })
}
