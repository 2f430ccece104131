import InfoOutlined from '@mui/icons-material/InfoOutlined'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Navigate } from 'react-router'
import { whoAmIQuery } from '../../api/queries'
import { Loading } from '../../components/Loading'
import { MessagePage } from '../../components/MessagePage'
import { usePageTitle } from '../../lib/pageTitle'
import { NAVIGATION } from '../shell/navigation'

/** The root leads to the first drawer entry the user may use. */
export function HomePage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.home'))
  const { data: user, isError } = useQuery(whoAmIQuery)
  if (isError) return null
  if (!user) return <Loading />
  const first = NAVIGATION.find((entry) => entry.allowed(user))
  if (first) return <Navigate to={first.to} replace />
  return (
    <MessagePage
      icon={<InfoOutlined color="info" sx={{ fontSize: 56 }} />}
      title={t('home.nothingAvailable')}
      detail={t('home.askAdministrator')}
    />
  )
}
