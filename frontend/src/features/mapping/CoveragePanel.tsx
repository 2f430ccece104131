import TableChartOutlined from '@mui/icons-material/TableChartOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Collapse from '@mui/material/Collapse'
import FormControlLabel from '@mui/material/FormControlLabel'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import Typography from '@mui/material/Typography'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { type FunctionForecast, ForecastTable, OUTLOOKS, OutlookLabel } from '../../components/dashboards/CoverageForecast'
import type { CartographyCoverage } from './api'

interface CoveragePanelProps {
  coverage: CartographyCoverage | undefined
  failed: boolean
  shown: boolean
  onShownChange: (shown: boolean) => void
}

/**
 * Beside the plan, for managers: the legend of the coverage colours drawn on the function zones (with
 * how many functions have each outlook), a switch to draw them or not, and the same figures as a table
 * (the plan's text equivalent, for screen readers and for whoever prefers numbers).
 */
export function CoveragePanel({ coverage, failed, shown, onShownChange }: CoveragePanelProps) {
  const { t } = useTranslation()
  const [table, setTable] = useState(false)
  const tableId = useId()
  const headingId = useId()
  const counts = (coverage?.functions ?? []).reduce<Partial<Record<FunctionForecast['outlook'], number>>>(
    (found, f) => ({ ...found, [f.outlook]: (found[f.outlook] ?? 0) + 1 }),
    {},
  )
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2, mt: 1.5 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 1 }}>
        <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t('mapping.cartography.coverage.title')}
        </Typography>
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
          <FormControlLabel
            control={<Switch checked={shown} onChange={(event) => onShownChange(event.target.checked)} />}
            label={t('mapping.cartography.coverage.showOnPlan')}
          />
          <Button
            variant="outlined"
            size="small"
            startIcon={<TableChartOutlined />}
            aria-expanded={table}
            aria-controls={tableId}
            disabled={!coverage}
            onClick={() => setTable(!table)}
          >
            {t(table ? 'mapping.cartography.coverage.hideTable' : 'mapping.cartography.coverage.showTable')}
          </Button>
        </Stack>
      </Stack>
      {failed ? (
        <Typography color="text.secondary" variant="body2">
          {t('mapping.cartography.coverage.failed')}
        </Typography>
      ) : (
        <Box
          component="ul"
          aria-label={t('mapping.cartography.coverage.legend')}
          sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 0.75 }}
        >
          {OUTLOOKS.map((outlook) => (
            <Box component="li" key={outlook} sx={{ typography: 'body2' }}>
              <OutlookLabel outlook={outlook}>
                {t(`coverageForecast.outlooks.${outlook}`)}
                {coverage && (
                  <Typography component="span" variant="body2" color="text.secondary">
                    {' '}
                    ({t('mapping.cartography.coverage.count', { count: counts[outlook] ?? 0 })})
                  </Typography>
                )}
              </OutlookLabel>
            </Box>
          ))}
        </Box>
      )}
      <Collapse in={table && coverage !== undefined} id={tableId} unmountOnExit>
        <Box sx={{ mt: 2 }}>{coverage && <ForecastTable forecast={coverage.functions} />}</Box>
      </Collapse>
    </Paper>
  )
}
