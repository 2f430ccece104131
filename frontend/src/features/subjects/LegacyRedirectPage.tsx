import OpenInNew from '@mui/icons-material/OpenInNew'
import Link from '@mui/material/Link'
import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { organizationInfoQuery } from '../../api/queries'
import { Loading } from '../../components/Loading'
import { MessagePage } from '../../components/MessagePage'
import { NotFoundPage } from '../../components/NotFoundPage'
import { type LegacyArea, legacyUrl } from './legacy'

/** The /v1 and /lms routes: they leave for the legacy application, and do not exist without its address. */
function LegacyRedirection({ area }: { area: LegacyArea }) {
  const { data: organization } = useQuery(organizationInfoQuery)
  const [search] = useSearchParams()
  if (!organization) return <Loading />
  const url = legacyUrl(organization.legacyBaseUrl, area, search.get('to'))
  return url ? <Leaving url={url} /> : <NotFoundPage />
}

function Leaving({ url }: { url: string }) {
  const { t } = useTranslation()
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

export const V1RedirectionPage = () => <LegacyRedirection area="v1" />
export const LmsRedirectionPage = () => <LegacyRedirection area="lms" />
