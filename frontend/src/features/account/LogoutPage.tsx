import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { LOGIN_PATH } from '../../lib/paths'
import { Loading } from '../../components/Loading'
import { usePageTitle } from '../../lib/pageTitle'
import { logout } from './api'

export function LogoutPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.logout'))
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  useEffect(() => {
    void logout().finally(() => {
      queryClient.clear()
      void navigate(LOGIN_PATH, { replace: true })
    })
  }, [navigate, queryClient])
  return <Loading />
}
