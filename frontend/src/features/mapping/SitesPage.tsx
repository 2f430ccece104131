import ChevronRight from '@mui/icons-material/ChevronRight'
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined'
import ExpandMore from '@mui/icons-material/ExpandMore'
import FactoryOutlined from '@mui/icons-material/FactoryOutlined'
import MapOutlined from '@mui/icons-material/MapOutlined'
import Accordion from '@mui/material/Accordion'
import AccordionDetails from '@mui/material/AccordionDetails'
import AccordionSummary from '@mui/material/AccordionSummary'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useSearchParams } from 'react-router'
import { cartographyPath } from '../../lib/paths'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { usePageTitle } from '../../lib/pageTitle'
import { type Site, sitesQuery } from './api'

/** The spec's delay before scrolling to the site of the requested cartography (part 1, §2). */
export const SCROLL_DELAY_MS = 200

const siteElementId = (siteId: number) => `site-${siteId}`

/** The sites open at first: the one holding the requested cartography, or the only site. */
export function initiallyOpen(sites: Site[], cartographyId: number | undefined): number[] {
  const holder = sites.find((site) => site.cartographies.some((cartography) => cartography.id === cartographyId))
  if (holder) return [holder.id]
  return sites.length === 1 ? [sites[0].id] : []
}

export function SitesPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.sites'))
  const { data: sites } = useQuery(sitesQuery)
  const [search] = useSearchParams()
  const requested = Number(search.get('cartographyId')) || undefined
  return (
    <>
      <PageHeader title={t('mapping.sites.title')} />
      {sites ? <SiteList key={requested} sites={sites} requested={requested} /> : <Loading />}
    </>
  )
}

/** `requested`: the cartography whose site opens and scrolls into view. */
function SiteList({ sites, requested }: { sites: Site[]; requested: number | undefined }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(() => initiallyOpen(sites, requested))

  useEffect(() => {
    const holder = initiallyOpen(sites, requested)
    if (requested === undefined || holder.length === 0) return
    const timer = window.setTimeout(
      () => document.getElementById(siteElementId(holder[0]))?.scrollIntoView({ behavior: 'smooth', block: 'start' }),
      SCROLL_DELAY_MS,
    )
    return () => window.clearTimeout(timer)
  }, [sites, requested])

  if (sites.length === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
        <Typography color="text.secondary">{t('mapping.sites.empty')}</Typography>
      </Paper>
    )
  }

  const toggle = (siteId: number) => setOpen(open.includes(siteId) ? open.filter((id) => id !== siteId) : [...open, siteId])

  return (
    <Stack spacing={1.5}>
      {sites.map((site) => (
        <Accordion
          key={site.id}
          id={siteElementId(site.id)}
          expanded={open.includes(site.id)}
          onChange={() => toggle(site.id)}
          disableGutters
          variant="outlined"
          sx={{ borderRadius: 1, '&::before': { display: 'none' }, scrollMarginTop: 80 }}
        >
          {/* On a narrow card the count goes under the name rather than pushing the line out of the card. */}
          <AccordionSummary expandIcon={<ExpandMore />} sx={{ '& .MuiAccordionSummary-content': { minWidth: 0 } }}>
            <Stack direction="row" useFlexGap sx={{ alignItems: 'center', flexGrow: 1, minWidth: 0, flexWrap: 'wrap', columnGap: 2, rowGap: 0.5 }}>
              <FactoryOutlined color="primary" />
              <Typography variant="h6" component="h2" sx={{ fontSize: '1.05rem', fontWeight: 600, minWidth: 0, overflowWrap: 'anywhere' }}>
                {site.name}
              </Typography>
              <Chip size="small" variant="outlined" label={site.code} />
              <Box sx={{ flexGrow: 1 }} />
              <Typography variant="body2" color="text.secondary" sx={{ pr: 1, whiteSpace: 'nowrap' }}>
                {t('mapping.sites.cartographyCount', { count: site.cartographies.length })}
              </Typography>
            </Stack>
          </AccordionSummary>
          <AccordionDetails sx={{ pt: 0 }}>
            {site.documents && (
              <Button
                component={RouterLink}
                to={`/site/${site.id}/documents`}
                startIcon={<DescriptionOutlined />}
                aria-label={t('mapping.documents.linkLabel', { site: site.name })}
                sx={{ mb: 1 }}
              >
                {t('mapping.documents.link')}
              </Button>
            )}
            {site.cartographies.length === 0 ? (
              <Typography color="text.secondary" sx={{ px: 2, pb: 1 }}>
                {t('mapping.sites.noCartography')}
              </Typography>
            ) : (
              <List disablePadding aria-label={t('mapping.sites.cartographiesOf', { site: site.name })}>
                {site.cartographies.map((cartography) => (
                  <ListItem key={cartography.id} disablePadding>
                    <ListItemButton
                      component={RouterLink}
                      to={cartographyPath(cartography.id)}
                      selected={cartography.id === requested}
                      sx={{ borderRadius: 1 }}
                    >
                      <ListItemIcon sx={{ minWidth: 40 }}>
                        <MapOutlined color="action" />
                      </ListItemIcon>
                      <ListItemText primary={cartography.name} secondary={cartography.code} />
                      <ChevronRight color="action" />
                    </ListItemButton>
                  </ListItem>
                ))}
              </List>
            )}
          </AccordionDetails>
        </Accordion>
      ))}
    </Stack>
  )
}
