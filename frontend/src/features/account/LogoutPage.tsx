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
    void logout().then((endSessionUrl) => {
      queryClient.clear()
      // Signed in through a provider: its session ends too, and it sends the browser back to Login.
      if (endSessionUrl) window.location.assign(endSessionUrl)
      else void navigate(LOGIN_PATH, { replace: true })
    })
  }, [navigate, queryClient])
  return <Loading />
}
