import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useNavigate } from 'react-router'
import { Loading } from '../../components/Loading'
import { logout } from './api'

export function LogoutPage() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  useEffect(() => {
    void logout().finally(() => {
      queryClient.clear()
      void navigate('/login', { replace: true })
    })
  }, [navigate, queryClient])
  return <Loading />
}
