import Home from '@mui/icons-material/Home'
import SearchOff from '@mui/icons-material/SearchOff'
import Button from '@mui/material/Button'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { HOME_PATH } from '../lib/paths'
import { usePageTitle } from '../lib/pageTitle'
import { MessagePage } from './MessagePage'

export function NotFoundPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.notFound'))
  const navigate = useNavigate()
  return (
    <MessagePage
      icon={<SearchOff color="secondary" sx={{ fontSize: 56 }} />}
      title={t('notFound.message')}
      actions={
        <Button variant="contained" startIcon={<Home />} onClick={() => void navigate(HOME_PATH)}>
          {t('actions.goHome')}
        </Button>
      }
    />
  )
}
