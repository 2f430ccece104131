import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import type { SxProps, Theme } from '@mui/material/styles'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import Typography from '@mui/material/Typography'
import { LineChart } from '@mui/x-charts/LineChart'
import { ChartTexts } from './ChartTexts'
import { useQuery } from '@tanstack/react-query'
import { useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { type Contributions, contributionsQuery, type UsageTarget } from './api'
import { PeriodsTable } from './PeriodsTable'
import { type Granularity, periodLabel, usageWindow } from './periods'

const CHART_HEIGHT = 260
// A tick label every so many periods, so that dates do not overlap.
const TICK_EVERY: Record<Granularity, number> = { week: 13, month: 3 }

/** The chart itself, loaded with MUI X Charts (UsageChart decides whether to show it). */
export default function UsageChartPanel({ target, sx }: { target: UsageTarget; sx?: SxProps<Theme> }) {
  const { t } = useTranslation()
  const [granularity, setGranularity] = useState<Granularity>('week')
  const periods = useMemo(() => usageWindow(granularity, new Date()), [granularity])
  const { data, isError } = useQuery(contributionsQuery(target, periods))
  const headingId = useId()
  // The server decides who sees the figures: a refusal shows nothing rather than a broken chart.
  if (isError) return null
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={[{ p: 2 }, ...(Array.isArray(sx) ? sx : [sx])]}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
        <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t('usage.title')}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={granularity}
          onChange={(_event, value: Granularity | null) => value && setGranularity(value)}
          aria-label={t('usage.granularity')}
        >
          <ToggleButton value="week">{t('usage.week')}</ToggleButton>
          <ToggleButton value="month">{t('usage.month')}</ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {t(granularity === 'week' ? 'usage.descriptionWeek' : 'usage.descriptionMonth', { count: periods.count })}
      </Typography>
      {/* While the other granularity loads, the figures shown are still those of the previous one. */}
      <Chart contributions={data} granularity={data?.granularity ?? granularity} />
    </Paper>
  )
}

function Chart({ contributions, granularity }: { contributions: Contributions | undefined; granularity: Granularity }) {
  const { t, i18n } = useTranslation()
  const periods = contributions?.periods ?? []
  const labels = periods.map((p) => periodLabel(p.start, granularity, i18n.language))
  return (
    <>
      {/* The same figures follow as a table, for screen readers and for whoever prefers numbers. */}
      <ChartTexts>
        <LineChart
          height={CHART_HEIGHT}
          loading={!contributions}
          skipAnimation
          xAxis={[
            {
              scaleType: 'point',
              data: labels,
              tickLabelInterval: (_value, index) => index % TICK_EVERY[granularity] === 0,
            },
          ]}
          yAxis={[{ tickMinStep: 1 }]}
          series={[
            { data: periods.map((p) => p.views), label: t('usage.views'), showMark: false, color: '#0074C8' },
            { data: periods.map((p) => p.contributions), label: t('usage.contributions'), showMark: false, color: '#009933' },
          ]}
          margin={{ right: 16 }}
        />
      </ChartTexts>
      <PeriodsTable periods={periods} granularity={granularity} />
    </>
  )
}
