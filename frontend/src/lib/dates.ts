import dayjs from 'dayjs'

const DATE_PATTERNS: Record<string, string> = { en: 'YYYY-MM-DD', fr: 'DD/MM/YYYY' }

/** How the language writes a calendar date: YYYY-MM-DD in English, DD/MM/YYYY in French. */
export function datePattern(language: string): string {
  return DATE_PATTERNS[language] ?? DATE_PATTERNS.fr
}

export function formatDate(value: dayjs.ConfigType, language: string): string {
  return dayjs(value).format(datePattern(language))
}

/** A moment in the user's time zone: its date as the language writes it, then the 24-hour time. */
export function formatDateTime(value: dayjs.ConfigType, language: string): string {
  return `${formatDate(value, language)} ${dayjs(value).format('HH:mm')}`
}
