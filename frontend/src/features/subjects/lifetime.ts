import { useTranslation } from 'react-i18next'
import type { LifetimeEvent } from './api'
import { formatDateTime } from '../../lib/dates'

/** 'by Jean Dupont on 12/03/2026 14:05', or `none` when the event never happened. */
export function useLifetimeText(): (event: LifetimeEvent | null, none: string) => string {
  const { t, i18n } = useTranslation()
  return (event, none) => {
    if (!event) return none
    const date = formatDateTime(event.date, i18n.language)
    return event.userName ? t('subjects.byOn', { user: event.userName, date }) : t('subjects.on', { date })
  }
}
