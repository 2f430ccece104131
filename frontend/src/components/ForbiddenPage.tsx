import ArrowBack from '@mui/icons-material/ArrowBack'
import Home from '@mui/icons-material/Home'
import LockOutlined from '@mui/icons-material/LockOutlined'
import Button from '@mui/material/Button'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { MessagePage } from './MessagePage'
import { usePageTitle } from '../lib/pageTitle'
import { HOME_PATH } from '../lib/paths'

export function ForbiddenPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.forbidden'))
  const navigate = useNavigate()
  return (
    <MessagePage
      icon={<LockOutlined color="warning" sx={{ fontSize: 56 }} />}
      title={t('forbidden.message')}
      actions={
        <>
          <Button startIcon={<ArrowBack />} onClick={() => void navigate(-1)}>
            {t('actions.goBack')}
          </Button>
          <Button variant="contained" startIcon={<Home />} onClick={() => void navigate(HOME_PATH)}>
            {t('actions.goHome')}
          </Button>
        </>
      }
    />
  )
}
