import CssBaseline from '@mui/material/CssBaseline'
import { ThemeProvider } from '@mui/material/styles'
import { QueryClientProvider, useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { RouterProvider } from 'react-router/dom'
import { organizationInfoQuery } from '../api/queries'
import { queryClient } from '../api/queryClient'
import { listenToOtherTabs, loginPathFor, setSessionExpiredHandler } from '../lib/session'
import { ErrorDialog } from './ErrorDialog'
import { createAppRouter } from './router'
import { theme } from './theme'

const router = createAppRouter()

function goToLoginAfterExpiry(): void {
  // The router's own location includes the base path, as returnUrl wants it.
  const { pathname, search } = router.state.location
  void router.navigate(loginPathFor(pathname, search), { replace: true }).then(() => queryClient.clear())
}

function DocumentTitle() {
  const { t } = useTranslation()
  const { data: organization } = useQuery(organizationInfoQuery)
  const application = organization?.applicationName ?? t('app.name')
  const customer = organization?.customerName
  useEffect(() => {
    document.title = customer ? `${application} - ${customer}` : application
  }, [application, customer])
  return null
}

export function App() {
  useEffect(() => {
    setSessionExpiredHandler(goToLoginAfterExpiry)
    // Another tab logged in or out: reloading puts this one in the same state.
    const stopListening = listenToOtherTabs(() => window.location.reload())
    return () => {
      setSessionExpiredHandler(undefined)
      stopListening()
    }
  }, [])
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <DocumentTitle />
        <RouterProvider router={router} />
        <ErrorDialog />
      </QueryClientProvider>
    </ThemeProvider>
  )
}
