import { BarChart } from '@mui/x-charts/BarChart'
import { ChartTexts } from '../../components/usage/ChartTexts'
import { useTranslation } from 'react-i18next'
import { PeriodsTable } from '../../components/usage/PeriodsTable'
import { type Granularity, periodLabel } from '../../components/usage/periods'
import type { ContributionPeriod } from './api'
import { chartRightMargin } from './contributions'

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
  return (
    <>
      <ChartTexts>
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
          margin={{ right: chartRightMargin(labels) }}
        />
      </ChartTexts>
      <PeriodsTable periods={periods} granularity={granularity} />
    </>
  )
}
