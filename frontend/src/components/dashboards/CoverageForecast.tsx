import Box from '@mui/material/Box'
import Link from '@mui/material/Link'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { alpha, type Theme } from '@mui/material/styles'
import type { SystemStyleObject } from '@mui/system'
import { visuallyHidden } from '@mui/utils'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import type { components } from '../../api/schema'
import { formatDate } from '../../lib/dates'
import { functionPath } from '../../lib/paths'

export type FunctionForecast = components['schemas']['FunctionForecast']
export type Outlook = FunctionForecast['outlook']

/** The outlooks, the gaps first, as the server orders the functions. */
export const OUTLOOKS: readonly Outlook[] = ['nobody', 'under', 'falling', 'enough']

/**
 * How a function's outlook is drawn, on the plan and in the legend: a colour and, for those who do not
 * tell colours apart, a pattern (crossed: nobody, stripes: under its minimum, dots: falling within 90
 * days, plain: enough). `unit`: the pattern's line width in pixels (the plan is drawn at its image's
 * size and shown smaller, so its zones take a larger one).
 */
export function outlookFill(theme: Theme, outlook: Outlook, { strength = 0.3, unit = 3 } = {}): SystemStyleObject<Theme> {
  const colour = {
    nobody: theme.palette.error.dark,
    under: theme.palette.error.main,
    falling: theme.palette.warning.main,
    enough: theme.palette.success.main,
  }[outlook]
  const ink = alpha(colour, Math.min(1, strength * 2))
  const tint = alpha(colour, strength)
  const period = unit * 4
  const stripes = (angle: number, width = unit) =>
    `repeating-linear-gradient(${angle}deg, ${ink} 0 ${width}px, transparent ${width}px ${period}px)`
  const pattern = {
    // Crossed lines half as thick: the plan's own words stay readable beneath.
    nobody: `${stripes(45, unit / 2)}, ${stripes(-45, unit / 2)}, `,
    under: `${stripes(45)}, `,
    falling: `radial-gradient(${ink} ${unit * 0.8}px, transparent ${unit}px) 0 0 / ${period}px ${period}px, `,
    enough: '',
  }[outlook]
  return { borderColor: colour, background: `${pattern}${tint}` }
}

/** A small square in the outlook's colour and pattern, beside its words. */
export function OutlookSwatch({ outlook }: { outlook: Outlook }) {
  return (
    <Box
      component="span"
      aria-hidden
      data-outlook={outlook}
      sx={(theme) => ({ display: 'inline-block', flex: 'none', width: 20, height: 20, border: 2, borderRadius: 0.5, ...outlookFill(theme, outlook, { strength: 0.35, unit: 2 }) })}
    />
  )
}

export function OutlookLabel({ outlook, children }: { outlook: Outlook; children?: React.ReactNode }) {
  const { t } = useTranslation()
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
      <OutlookSwatch outlook={outlook} />
      <span>{children ?? t(`coverageForecast.outlooks.${outlook}`)}</span>
    </Box>
  )
}

/**
 * Tomorrow's coverage of a cartography's functions (docs/qualifications.md): per function its
 * outlook, its minimum, and its qualified people today and in 30, 60 and 90 days, the days under the
 * minimum marked, with those being requalified apart. The table scrolls inside its frame on a phone.
 */
export function ForecastTable({ forecast, linkFunctions = true }: { forecast: readonly FunctionForecast[]; linkFunctions?: boolean }) {
  const { t, i18n } = useTranslation()
  if (forecast.length === 0) {
    return (
      <Typography color="text.secondary" variant="body2">
        {t('coverageForecast.empty')}
      </Typography>
    )
  }
  const days = forecast[0].points.map((p) => p.days)
  return (
    <Box
      // A region of its own, that the keyboard scrolls on a phone.
      role="region"
      aria-label={t('coverageForecast.caption')}
      tabIndex={0}
      // The table scrolls inside it on a phone; positioned, so that the hidden words of its cells (absolute)
      // scroll with it rather than widening the page.
      sx={{ position: 'relative', overflowX: 'auto', '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } }}
    >
      <Table size="small" sx={{ minWidth: 720 }}>
        <caption style={visuallyHidden}>{t('coverageForecast.caption')}</caption>
        <TableHead>
          <TableRow>
            <TableCell component="th" scope="col">
              {t('coverageForecast.function')}
            </TableCell>
            <TableCell component="th" scope="col">
              {t('coverageForecast.outlook')}
            </TableCell>
            <TableCell component="th" scope="col" align="right">
              {t('coverageForecast.minimum')}
            </TableCell>
            {days.map((d) => (
              <TableCell key={d} component="th" scope="col" align="right">
                {d === 0 ? t('coverageForecast.today') : t('coverageForecast.inDays', { count: d })}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {forecast.map((f) => (
            <TableRow key={f.function.id} data-outlook={f.outlook}>
              <TableCell component="th" scope="row" sx={{ fontWeight: 500, minWidth: 140 }}>
                {linkFunctions ? (
                  <Link component={RouterLink} to={functionPath(f.function.id)} underline="hover">
                    {f.function.name}
                  </Link>
                ) : (
                  f.function.name
                )}
              </TableCell>
              <TableCell sx={{ minWidth: 180 }}>
                <OutlookLabel outlook={f.outlook} />
                {f.fallsOn && (
                  <Typography variant="caption" color="text.secondary" component="div">
                    {t('coverageForecast.fallsOn', { date: formatDate(f.fallsOn, i18n.language) })}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="right">{f.minimum}</TableCell>
              {f.points.map((p) => (
                <TableCell
                  key={p.days}
                  align="right"
                  data-under={p.underMinimum || undefined}
                  sx={p.underMinimum ? { color: 'error.text', fontWeight: 700, bgcolor: (theme) => alpha(theme.palette.error.main, 0.08) } : undefined}
                >
                  {p.valid}
                  {p.underMinimum && <span style={visuallyHidden}>, {t('coverageForecast.underMinimum')}</span>}
                  {p.requalifying > 0 && (
                    <Typography variant="caption" color="text.secondary" component="div" sx={{ fontWeight: 400 }}>
                      {t('coverageForecast.requalifying', { count: p.requalifying })}
                    </Typography>
                  )}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  )
}
