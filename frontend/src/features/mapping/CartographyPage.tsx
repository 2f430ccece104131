import BadgeOutlined from '@mui/icons-material/BadgeOutlined'
import EditNoteOutlined from '@mui/icons-material/EditNoteOutlined'
import NavigateNext from '@mui/icons-material/NavigateNext'
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined'
import Breadcrumbs from '@mui/material/Breadcrumbs'
import Chip from '@mui/material/Chip'
import Grid from '@mui/material/Grid'
import Link from '@mui/material/Link'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useParams } from 'react-router'
import { whoAmIQuery } from '../../api/queries'
import { type FunctionForecast, OutlookSwatch } from '../../components/dashboards/CoverageForecast'
import { cartographyQualificationDashboardPath, functionPath, siteOfCartographyPath } from '../../lib/paths'
import { mayOpen } from '../../lib/routes'
import { CartographyQualificationsButton } from '../../components/dashboards/CartographyQualificationsButton'
import { SkillsMatrixButton } from '../../components/dashboards/SkillsMatrixButton'
import { DiscussionPanel } from '../../components/discussion/DiscussionPanel'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { UsageChart } from '../../components/usage/UsageChart'
import { usePageTitle } from '../../lib/pageTitle'
import { idParam } from '../../lib/routeParams'
import { ActivityTree } from './ActivityTree'
import { type Cartography, cartographyCoverageQuery, cartographyQuery, type Pictogram, pictogramsQuery } from './api'
import { CartographyMap } from './CartographyMap'
import { CoveragePanel } from './CoveragePanel'
import { PdfExportButton } from './PdfExportButton'
import { QrSheetButton } from './QrSheetButton'

export function CartographyPage() {
  const cartographyId = idParam(useParams().cartographyId)
  return cartographyId === undefined ? <NotFoundPage /> : <LoadedCartography key={cartographyId} cartographyId={cartographyId} />
}

function LoadedCartography({ cartographyId }: { cartographyId: number }) {
  const { t } = useTranslation()
  const { data: cartography, error } = useQuery(cartographyQuery(cartographyId))
  usePageTitle(error ? undefined : t('pageTitles.cartography'))
  if (error) return <LoadFailure error={error} />
  if (!cartography) return <Loading />
  return <CartographyView cartography={cartography} />
}

function CartographyView({ cartography }: { cartography: Cartography }) {
  const { t, i18n } = useTranslation()
  const [highlighted, setHighlighted] = useState<number>()
  const { data: pictograms = [] } = useQuery(pictogramsQuery(cartography.id))
  const pictogramsByActivity = useMemo(() => {
    const grouped = new Map<number, Pictogram[]>()
    pictograms.forEach((pictogram) => grouped.set(pictogram.activityId, [...(grouped.get(pictogram.activityId) ?? []), pictogram]))
    return grouped
  }, [pictograms])
  const number = new Intl.NumberFormat(i18n.language)
  // Managers (those who may open the cartography's qualification dashboard) see each function's
  // coverage outlook on the plan, its legend and its table.
  const { data: user } = useQuery({ ...whoAmIQuery, enabled: false })
  const manager = mayOpen(user, cartographyQualificationDashboardPath(cartography.id))
  const { data: coverage, isError: coverageFailed } = useQuery({ ...cartographyCoverageQuery(cartography.id), enabled: manager })
  const [coverageShown, setCoverageShown] = useState(true)
  const outlooks = useMemo(
    () => (coverage && coverageShown ? new Map(coverage.functions.map((f) => [f.function.id, f])) : undefined),
    [coverage, coverageShown],
  )

  return (
    <>
      <Breadcrumbs
        separator={<NavigateNext fontSize="small" />}
        sx={{ mb: 0.5, '& .MuiBreadcrumbs-separator': { mx: 0.25 } }}
        aria-label={t('mapping.cartography.context')}
      >
        <Link component={RouterLink} to={siteOfCartographyPath(cartography.id)} underline="hover" color="inherit">
          {cartography.site.name}
        </Link>
        <Typography color="text.primary" aria-current="page">
          {cartography.name}
        </Typography>
      </Breadcrumbs>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2.5, gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {cartography.name}
        </Typography>
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
          <Tooltip title={t('mapping.cartography.readsHint')}>
            <Chip icon={<VisibilityOutlined />} variant="outlined" label={t('mapping.cartography.reads', { count: cartography.stats.reads, formatted: number.format(cartography.stats.reads) })} />
          </Tooltip>
          <Tooltip title={t('mapping.cartography.writesHint')}>
            <Chip icon={<EditNoteOutlined />} variant="outlined" label={t('mapping.cartography.writes', { count: cartography.stats.writes, formatted: number.format(cartography.stats.writes) })} />
          </Tooltip>
          <PdfExportButton cartography={cartography} />
          <QrSheetButton cartographyId={cartography.id} />
          <CartographyQualificationsButton cartographyId={cartography.id} />
          <SkillsMatrixButton cartographyId={cartography.id} />
          <DiscussionPanel discussionId={cartography.discussionId} />
        </Stack>
      </Stack>
      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, lg: 8 }}>
          <CartographyMap cartography={cartography} highlighted={highlighted} coverage={outlooks} />
          {manager && <CoveragePanel coverage={coverage} failed={coverageFailed} shown={coverageShown} onShownChange={setCoverageShown} />}
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          <Stack spacing={2.5}>
            <SidePanel title={t('mapping.cartography.activities')} count={cartography.activities.length}>
              {cartography.activities.length === 0 ? (
                <Typography color="text.secondary" sx={{ px: 2, pb: 2 }}>
                  {t('mapping.cartography.noActivity')}
                </Typography>
              ) : (
                <ActivityTree
                  cartographyId={cartography.id}
                  activities={cartography.activities}
                  pictograms={pictogramsByActivity}
                  onHighlight={setHighlighted}
                />
              )}
            </SidePanel>
            <SidePanel title={t('mapping.cartography.functions')} count={cartography.functions.length}>
              {cartography.functions.length === 0 ? (
                <Typography color="text.secondary" sx={{ px: 2, pb: 2 }}>
                  {t('mapping.cartography.noFunction')}
                </Typography>
              ) : (
                <List disablePadding>
                  {cartography.functions.map((fn) => (
                    <ListItem key={fn.id} disablePadding>
                      <ListItemButton
                        component={RouterLink}
                        to={functionPath(fn.id)}
                        onMouseEnter={() => setHighlighted(fn.id)}
                        onMouseLeave={() => setHighlighted(undefined)}
                        onFocus={() => setHighlighted(fn.id)}
                        onBlur={() => setHighlighted(undefined)}
                        sx={{ borderRadius: 1 }}
                      >
                        <ListItemIcon sx={{ minWidth: 36 }}>
                          <BadgeOutlined fontSize="small" color="action" />
                        </ListItemIcon>
                        <ListItemText primary={fn.name} secondary={outlooks && <FunctionOutlook forecast={outlooks.get(fn.id)} />} />
                      </ListItemButton>
                    </ListItem>
                  ))}
                </List>
              )}
            </SidePanel>
          </Stack>
        </Grid>
      </Grid>
      <UsageChart target={{ itemIds: [cartography.id] }} sx={{ mt: 2.5 }} />
    </>
  )
}

/** A function's outlook in the side list, in words beside its swatch (the plan's colours in text). */
function FunctionOutlook({ forecast }: { forecast: FunctionForecast | undefined }) {
  const { t } = useTranslation()
  if (!forecast) return null
  return (
    <Stack component="span" direction="row" sx={{ alignItems: 'center', gap: 0.75 }}>
      <OutlookSwatch outlook={forecast.outlook} />
      <span>
        {t(`coverageForecast.outlooks.${forecast.outlook}`)} · {forecast.points[0].valid}/{forecast.minimum}
      </span>
    </Stack>
  )
}

function SidePanel({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ pb: 1 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', px: 2, pt: 1.5, pb: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {count}
        </Typography>
      </Stack>
      {children}
    </Paper>
  )
}
