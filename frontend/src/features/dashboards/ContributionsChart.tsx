import { visuallyHidden } from '@mui/utils'
import { BarChart } from '@mui/x-charts/BarChart'
import { useTranslation } from 'react-i18next'
import { type Granularity, periodLabel } from '../../components/usage/periods'
import type { ContributionPeriod } from './api'

// Space between two dates of the axis: the chart leaves out the labels that would come closer, whatever its width.
const TICK_LABEL_GAP = 16

/**
 * Views and contributions per period as bars, then the same figures as a table for screen readers and
 * for whoever prefers numbers (the usage chart's presentation, spec 1 §9 colours).
 */
export function ContributionsChart({
  periods,
  granularity,
  loading = false,
  height = 260,
}: {
  periods: readonly ContributionPeriod[]
  granularity: Granularity
  loading?: boolean
  height?: number
}) {
  const { t, i18n } = useTranslation()
  const labels = periods.map((p) => periodLabel(p.start, granularity, i18n.language))
  const fullLabel = (start: string) =>
    granularity === 'week' ? t('usage.weekOf', { date: periodLabel(start, 'week', i18n.language) }) : periodLabel(start, 'month', i18n.language, true)
  return (
    <>
      <BarChart
        height={height}
        loading={loading}
        skipAnimation
        xAxis={[{ scaleType: 'band', data: labels, tickLabelMinGap: TICK_LABEL_GAP }]}
        yAxis={[{ tickMinStep: 1 }]}
        series={[
          { data: periods.map((p) => p.views), label: t('usage.views'), color: '#0074C8' },
          { data: periods.map((p) => p.contributions), label: t('usage.contributions'), color: '#009933' },
        ]}
        margin={{ right: 16 }}
      />
      {/* Hidden by a wrapper: a table does not shrink below its content, so hidden itself it widened the page on a phone. */}
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
    </>
  )
}
