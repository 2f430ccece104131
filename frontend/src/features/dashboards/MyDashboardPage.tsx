import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import Grid from '@mui/material/Grid'
import Link from '@mui/material/Link'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { trainingPathPath } from '../../lib/paths'
import { alertKey, alertPath, alertWhen } from '../../lib/alerts'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { formatDate } from '../../lib/dates'
import { usePageTitle } from '../../lib/pageTitle'
import { type AlertGroup, type CurrentPath, myDashboardQuery, type PeriodicModule } from './api'
import { Completion } from '../../components/Completion'
import { ContributionsChart } from './ContributionsChart'
import { DashboardSection, EmptyText } from './DashboardSection'

/** The periodic modules' colours (spec 2 §9) as theme colours: the server says which applies. */
const PERIODIC_COLOURS = { green: 'success', red: 'error', grey: 'secondary' } as const

/** My dashboard (spec 2 §2 Dashboards), where the root leads: current paths, awaited actions, contributions, periodic modules. */
export function MyDashboardPage() {
  const { t } = useTranslation()
  usePageTitle(t('dashboards.mine.title'))
  const { data: dashboard, isError } = useQuery(myDashboardQuery)
  return (
    <>
      <PageHeader title={t('dashboards.mine.title')} />
      {isError ? null : !dashboard ? (
        <Loading />
      ) : (
        <Grid container spacing={2.5}>
          <Grid size={{ xs: 12, lg: 6 }} sx={{ minWidth: 0 }}>
            <Stack spacing={2.5}>
              <CurrentPaths paths={dashboard.currentPaths} />
              <AwaitedActions groups={dashboard.alerts} />
            </Stack>
          </Grid>
          <Grid size={{ xs: 12, lg: 6 }} sx={{ minWidth: 0 }}>
            <Stack spacing={2.5}>
              <DashboardSection title={t('dashboards.mine.contributions')}>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                  {t('dashboards.mine.contributionsDescription', { count: dashboard.contributions.length })}
                </Typography>
                <ContributionsChart periods={dashboard.contributions} granularity="month" height={220} />
              </DashboardSection>
              <PeriodicModules modules={dashboard.periodicModules} />
            </Stack>
          </Grid>
        </Grid>
      )}
    </>
  )
}

function CurrentPaths({ paths }: { paths: CurrentPath[] }) {
  const { t, i18n } = useTranslation()
  return (
    <DashboardSection title={t('dashboards.mine.currentPaths')}>
      {paths.length === 0 ? (
        <EmptyText>{t('dashboards.mine.noCurrentPath')}</EmptyText>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {paths.map((path) => (
            <Box component="li" key={path.id} sx={{ py: 1, borderTop: 1, borderColor: 'divider', '&:first-of-type': { borderTop: 0, pt: 0 } }}>
              <Stack direction="row" sx={{ alignItems: 'baseline', columnGap: 1, rowGap: 0.5, flexWrap: 'wrap' }}>
                <Link component={RouterLink} to={trainingPathPath(path.id)} underline="hover" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                  {path.title}
                </Link>
                <Chip size="small" variant="outlined" label={t(`trainingPaths.status.${path.status}`)} />
              </Stack>
              <Typography variant="body2" color="text.secondary">
                {t('dashboards.fromTo', { start: formatDate(path.startDate, i18n.language), stop: formatDate(path.stopDate, i18n.language) })}
              </Typography>
              <Completion of={path} label={t('dashboards.completionOf', { title: path.title })} />
            </Box>
          ))}
        </Box>
      )}
    </DashboardSection>
  )
}

function AwaitedActions({ groups }: { groups: AlertGroup[] }) {
  const { t, i18n } = useTranslation()
  const shown = groups.filter((group) => group.count > 0)
  return (
    <DashboardSection title={t('dashboards.mine.awaitedActions')}>
      {shown.length === 0 ? (
        <EmptyText>{t('alerts.empty')}</EmptyText>
      ) : (
        <Stack spacing={1.5}>
          {shown.map((group) => (
            <Box key={group.kind}>
              <Typography variant="body2" component="h3" sx={{ fontWeight: 600 }}>
                {t(`dashboards.mine.kinds.${group.kind}`, { count: group.count })}
              </Typography>
              <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                {group.alerts.map((alert) => (
                  <li key={alertKey(alert)}>
                    <Link component={RouterLink} to={alertPath(alert.target)} underline="hover" variant="body2">
                      {t(`alerts.kinds.${alert.kind}`, alert.args)}
                    </Link>{' '}
                    <Typography component="span" variant="caption" color="text.secondary">
                      {alertWhen(alert, t, i18n.language, false)}
                    </Typography>
                  </li>
                ))}
              </Box>
              {group.count > group.alerts.length && (
                <Typography variant="caption" color="text.secondary">
                  {t('alerts.newestOf', { shown: group.alerts.length, count: group.count })}
                </Typography>
              )}
            </Box>
          ))}
        </Stack>
      )}
    </DashboardSection>
  )
}

function PeriodicModules({ modules }: { modules: PeriodicModule[] }) {
  const { t, i18n } = useTranslation()
  return (
    <DashboardSection title={t('dashboards.mine.periodicModules')}>
      {modules.length === 0 ? (
        <EmptyText>{t('dashboards.mine.noPeriodicModule')}</EmptyText>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {modules.map((module) => {
            const colour = PERIODIC_COLOURS[module.color]
            return (
              <Box
                component="li"
                key={`${module.pathId}:${module.moduleIndex}`}
                data-colour={module.color}
                sx={{ display: 'flex', alignItems: 'baseline', columnGap: 1.5, rowGap: 0.25, flexWrap: 'wrap', py: 0.75, borderTop: 1, borderColor: 'divider', borderLeft: 4, borderLeftColor: `${colour}.main`, pl: 1 }}
              >
                <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                  {module.moduleName}
                </Typography>
                <Link component={RouterLink} to={trainingPathPath(module.pathId)} underline="hover" variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {module.pathTitle}
                </Link>
                <Typography variant="body2" sx={{ color: `${colour}.text`, fontWeight: 600 }}>
                  {module.days > 0
                    ? t('dashboards.mine.validUntil', { date: formatDate(module.validUntil, i18n.language), count: module.days })
                    : t('dashboards.mine.expiredAgo', { date: formatDate(module.validUntil, i18n.language), count: -module.days })}
                </Typography>
              </Box>
            )
          })}
        </Box>
      )}
    </DashboardSection>
  )
}
