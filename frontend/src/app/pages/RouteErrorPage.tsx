import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined'
import Refresh from '@mui/icons-material/Refresh'
import Button from '@mui/material/Button'
import { useTranslation } from 'react-i18next'
import { MessagePage } from '../../components/MessagePage'
import { usePageTitle } from '../../lib/pageTitle'

/** A screen that failed to render or load its code (often a new version was deployed meanwhile). */
export function RouteErrorPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.error'))
  return (
    <MessagePage
      icon={<ErrorOutline color="error" sx={{ fontSize: 56 }} />}
      title={t('errorDialog.title')}
      detail={t('routeError.detail')}
      actions={
        <Button variant="contained" startIcon={<Refresh />} onClick={() => window.location.reload()}>
          {t('actions.reload')}
        </Button>
      }
    />
  )
}
