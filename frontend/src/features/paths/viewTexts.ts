import { useTranslation } from 'react-i18next'

/** A duration in minutes as 'H' and 'Mn' (spec 2 §9); 0 is not defined. */
export function useDurationText(): (minutes: number) => string {
  const { t } = useTranslation()
  return (minutes) => {
    if (minutes <= 0) return t('trainingPath.duration.notDefined')
    const hours = Math.floor(minutes / 60)
    const rest = minutes % 60
    if (hours === 0) return t('trainingPath.duration.minutes', { minutes: rest })
    if (rest === 0) return t('trainingPath.duration.hours', { hours })
    return t('trainingPath.duration.hoursMinutes', { hours, minutes: rest })
  }
}

/** A grade out of 10 with its one decimal as the language writes it (8.5 / 10, 8,5 / 10). */
export function formatGrade(grade: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(grade)
}
