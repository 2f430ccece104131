import dayjs from 'dayjs'
import { formatDate } from '../../lib/dates'

/** A moment as the language writes it: its date (see lib/dates) and the time, 24 hours. */
export function formatDateTime(value: string, language: string): string {
  return `${formatDate(value, language)} ${dayjs(value).format('HH:mm')}`
}
