import { visuallyHidden } from '@mui/utils'
import { useTranslation } from 'react-i18next'
import type { Contributions } from './api'
import { type Granularity, periodLabel } from './periods'

/**
 * The figures of a views and contributions chart as a table, hidden but for screen readers (and for
 * whoever prefers numbers): every chart of them shows it after itself.
 */
export function PeriodsTable({ periods, granularity }: { periods: Readonly<Contributions['periods']>; granularity: Granularity }) {
  const { t, i18n } = useTranslation()
  const fullLabel = (start: string) =>
    granularity === 'week'
      ? t('usage.weekOf', { date: periodLabel(start, 'week', i18n.language) })
      : periodLabel(start, 'month', i18n.language, true)
  return (
    // Hidden by a wrapper: a table does not shrink below its content, so hidden itself it widened the page on a phone.
    <div style={visuallyHidden}>
      <table>
        <caption>{t(granularity === 'week' ? 'usage.tableCaptionWeek' : 'usage.tableCaptionMonth')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('usage.period')}</th>
            <th scope="col">{t('usage.views')}</th>
            <th scope="col">{t('usage.contributions')}</th>
          </tr>
        </thead>
        <tbody>
          {periods.map((p) => (
            <tr key={p.start}>
              <th scope="row">{fullLabel(p.start)}</th>
              <td>{p.views}</td>
              <td>{p.contributions}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
