import CssBaseline from '@mui/material/CssBaseline'
import { QueryClientProvider, useQuery } from '@tanstack/react-query'
import { useEffect, useSyncExternalStore } from 'react'
import { RouterProvider } from 'react-router/dom'
import { organizationInfoQuery } from '../api/queries'
import { queryClient } from '../api/queryClient'
import { connection } from '../lib/connection'
import { listenToOtherTabs, setSessionExpiredHandler } from '../lib/session'
import { ErrorDialog } from './ErrorDialog'
import { LanguageTheme } from './LanguageTheme'
import { loginPathFor } from '../lib/paths'
import { createAppRouter } from './router'

const router = createAppRouter()

function goToLoginAfterExpiry(): void {
  // The router's own location includes the base path, as returnUrl wants it.
  const { pathname, search } = router.state.location
  void router.navigate(loginPathFor(pathname, search), { replace: true }).then(() => queryClient.clear())
}

/**
 * The pages, once the organisation's information is read: its names for the title bar and the
 * document title of every page, Login included, and its time zone, in which every time is shown.
 * Offline, at once: the installed app opens and its shell says it is offline (lib/connection).
 */
function Pages() {
  const { isPending } = useQuery(organizationInfoQuery)
  const offline = useSyncExternalStore(connection.subscribe, connection.offline)
  return isPending && !offline ? null : <RouterProvider router={router} />
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
    <LanguageTheme>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <Pages />
        <ErrorDialog />
      </QueryClientProvider>
    </LanguageTheme>
  )
}
