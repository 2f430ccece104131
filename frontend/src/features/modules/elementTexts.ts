import { useTranslation } from 'react-i18next'
import { contextText } from '../../components/mapTree/MapItemPicker'

/** The first line of a text, with an ellipsis when more lines follow (spec 2 §9). */
export function firstLine(text: string): string {
  const lines = text.split('\n')
  return lines.length > 1 ? `${lines[0]}…` : lines[0]
}

/** A duration in minutes as 'H' and 'Mn' (spec 2 §9); 0 is not defined. */
export function useDurationText(): (minutes: number) => string {
  const { t } = useTranslation()
  return (minutes) => {
    if (minutes <= 0) return t('modules.notDefined')
    const hours = Math.floor(minutes / 60)
    const rest = minutes % 60
    if (hours === 0) return t('modules.durationMinutes', { minutes: rest })
    if (rest === 0) return t('modules.durationHours', { hours })
    return t('modules.durationHoursMinutes', { hours, minutes: rest })
  }
}

/** A periodicity in months; 0 is none. */
export function usePeriodicityText(): (months: number) => string {
  const { t } = useTranslation()
  return (months) => (months > 0 ? t('modules.everyMonths', { count: months }) : t('modules.notPeriodic'))
}

export { contextText }
