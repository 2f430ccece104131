import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useNavigate } from 'react-router'
import { LOGIN_PATH } from '../../app/paths'
import { Loading } from '../../components/Loading'
import { logout } from './api'

export function LogoutPage() {
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
