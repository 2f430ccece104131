import ArrowBack from '@mui/icons-material/ArrowBack'
import Home from '@mui/icons-material/Home'
import LinkOff from '@mui/icons-material/LinkOff'
import OpenInNew from '@mui/icons-material/OpenInNew'
import Button from '@mui/material/Button'
import Link from '@mui/material/Link'
import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router'
import { organizationInfoQuery } from '../../api/queries'
import { HOME_PATH } from '../../lib/paths'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { MessagePage } from '../../components/MessagePage'
import { NotFoundPage } from '../../components/NotFoundPage'
import { usePageTitle } from '../../lib/pageTitle'
import { legacyTargetQuery } from './api'
import { isSpotViewTarget, legacyTargetPath, legacyUrl } from './legacy'

/**
 * The /v1 route: it leaves for the legacy application. Without its address (SPOT_LEGACY_BASE_URL)
 * a function, or a subject's mind map, standardized mind map or diagram, opens Spot's own page, and any other
 * target says the legacy application is not configured; a target that would leave the legacy
 * base is an unknown page.
 */
export function V1RedirectionPage() {
  const { data: organization } = useQuery(organizationInfoQuery)
  const [search] = useSearchParams()
  const to = search.get('to')
  if (!organization) return <Loading />
  if (!organization.legacyBaseUrl) return isSpotViewTarget(to) ? <SpotView key={to} to={to} /> : <LegacyNotConfigured />
  const url = legacyUrl(organization.legacyBaseUrl, search.get('to'))
  return url ? <Leaving url={url} /> : <NotFoundPage />
}

/** A legacy function, mind-map or diagram address, resolved by the server into Spot's page. */
function SpotView({ to }: { to: string }) {
  const { data: target, error } = useQuery(legacyTargetQuery(to))
  if (error) return <LoadFailure error={error} />
  if (!target) return <Loading />
  // Replacing: going back leads to the page that followed the legacy link, not here again.
  return <Navigate to={legacyTargetPath(target)} replace />
}

function Leaving({ url }: { url: string }) {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.legacy'))
  // Replacing keeps the way back to the page that led here.
  useEffect(() => window.location.replace(url), [url])
  return (
    <MessagePage
      icon={<OpenInNew color="primary" sx={{ fontSize: 56 }} />}
      title={t('subjects.legacy.leaving')}
      detail={t('subjects.legacy.leavingDetail')}
      actions={<Link href={url}>{t('subjects.legacy.follow')}</Link>}
    />
  )
}

function LegacyNotConfigured() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  // The first page of the tab (a link opened from elsewhere) has nowhere to go back to.
  const cameFromHere = useLocation().key !== 'default'
  usePageTitle(t('pageTitles.legacyNotConfigured'))
  return (
    <MessagePage
      icon={<LinkOff color="secondary" sx={{ fontSize: 56 }} />}
      title={t('subjects.legacy.notConfigured')}
      detail={t('subjects.legacy.notConfiguredDetail')}
      actions={
        <>
          {cameFromHere && (
            <Button startIcon={<ArrowBack />} onClick={() => void navigate(-1)}>
              {t('actions.goBack')}
            </Button>
          )}
          <Button variant="contained" startIcon={<Home />} onClick={() => void navigate(HOME_PATH)}>
            {t('actions.goHome')}
          </Button>
        </>
      }
    />
  )
}
