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
  /** What a write did (an event kind); null for a read. */
  event?: string | null
  entityType: string
  /** Null when the reader may not read the item (or it is gone): the line does not name it. */
  entityName: string | null
}

/**
 * A tracked action as one line in the reader's language: date and time, read or what the write did,
 * the item's type and name. Report items are worded here for each reader, never stored as text.
 */
export function useActionLine(): (action: ActionLine) => string {
  const { t, i18n } = useTranslation()
  const typeLabel = useEntityTypeLabel()
  const what = (mode: string, event?: string | null) => {
    if (mode === 'R') return t('mediations.report.modes.read')
    const key = `mediations.report.events.${event}`
    return event && i18n.exists(key) ? t(key) : t('mediations.report.modes.write')
  }
  return ({ date, mode, event, entityType, entityName }) =>
    t('mediations.report.line', {
      date: formatDateTime(date, i18n.language),
      mode: what(mode, event),
      type: typeLabel(entityType),
      name: entityName ?? t('mediations.report.hiddenItem'),
    })
}
