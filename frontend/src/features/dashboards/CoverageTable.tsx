import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import Link from '@mui/material/Link'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { whoAmIQuery } from '../../api/queries'
import { functionPath, userQualificationDashboardPath } from '../../lib/paths'
import { validityText } from '../../components/qualifications/validity'
import type { FunctionCoverage } from './api'
import { EmptyText } from './DashboardSection'

/** The colours of the coverage levels (DESIGN §10): nobody qualified, a single person (no backup), covered. */
const COVERAGE_COLOURS = { none: 'error', single: 'warning', covered: 'success' } as const

/**
 * The functions of a cartography with the people qualified for them (DESIGN §10 coverage), as the
 * server orders them: those no one or one person only is qualified for come first, flagged; and those
 * with fewer people qualified than their minimum, flagged too.
 */
export function CoverageTable({ coverage }: { coverage: FunctionCoverage[] }) {
  const { t, i18n } = useTranslation()
  const { data: user } = useQuery(whoAmIQuery)
  // A person's status is open to whoever the server lets see anyone's (whoAmI's can).
  const linkPeople = user?.can?.seeQualificationDashboards === true
  if (coverage.length === 0) return <EmptyText>{t('dashboards.qualifications.noCoveredFunction')}</EmptyText>
  return (
    <Box component="ul" aria-label={t('dashboards.qualifications.coverage')} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {coverage.map((row) => {
        const colour = COVERAGE_COLOURS[row.level]
        return (
          <Box
            component="li"
            key={row.function.id}
            data-level={row.level}
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: 'minmax(0, 1fr) minmax(0, 1.5fr)' },
              columnGap: 2,
              rowGap: 0.5,
              py: 1,
              borderTop: 1,
              borderColor: 'divider',
              '&:first-of-type': { borderTop: 0, pt: 0 },
            }}
          >
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', alignSelf: 'start', minWidth: 0 }}>
              <Link component={RouterLink} to={functionPath(row.function.id)} underline="hover" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                {row.function.name}
              </Link>
              <Chip
                size="small"
                variant="outlined"
                label={t(`dashboards.qualifications.levels.${row.level}`)}
                sx={{ color: `${colour}.text`, borderColor: `${colour}.main`, fontWeight: 600 }}
              />
              {row.underMinimum && (
                <Chip
                  size="small"
                  variant="outlined"
                  data-under-minimum
                  label={t('dashboards.qualifications.underMinimum', { count: row.qualified.length, minimum: row.minimum })}
                  sx={{ color: 'error.text', borderColor: 'error.main', fontWeight: 600 }}
                />
              )}
            </Box>
            {row.qualified.length === 0 ? (
              <EmptyText>{t('dashboards.qualifications.nobody')}</EmptyText>
            ) : (
              <Box component="ul" aria-label={t('dashboards.qualifications.qualifiedFor', { name: row.function.name })} sx={{ listStyle: 'none', m: 0, p: 0 }}>
                {row.qualified.map((holder) => (
                  // The name and its validity side by side, not one running text: a link stands out by
                  // its colour among items (in a sentence it would need an underline).
                  <Typography
                    component="li"
                    key={holder.user.id}
                    variant="body2"
                    sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 0.75 }}
                  >
                    {linkPeople ? (
                      <Link component={RouterLink} to={userQualificationDashboardPath(holder.user.id)} underline="hover">
                        {holder.user.name}
                      </Link>
                    ) : (
                      <span>{holder.user.name}</span>
                    )}
                    <Typography component="span" variant="caption" color="text.secondary">
                      {validityText(holder, t, i18n.language)}
                    </Typography>
                  </Typography>
                ))}
              </Box>
            )}
          </Box>
        )
      })}
    </Box>
  )
}
