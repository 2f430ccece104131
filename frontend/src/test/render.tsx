import { type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router'
import { createQueryClient } from '../api/queryClient'
import { ErrorDialog } from '../app/ErrorDialog'
import { LanguageTheme } from '../app/LanguageTheme'

const clients = new Set<QueryClient>()

/**
 * Stops what the clients of the test that ended still do: a request that failed on the network is
 * tried again a few seconds later, when the test's fake server is gone, and its error would open the
 * error dialog in a later test.
 */
export async function stopQueryClients(): Promise<void> {
  for (const client of clients) {
    await client.cancelQueries()
    client.clear()
  }
  clients.clear()
}

export function renderWithClient(ui: ReactNode) {
  const queryClient = createQueryClient()
  clients.add(queryClient)
  return render(
    <LanguageTheme>
      <QueryClientProvider client={queryClient}>
        {ui}
        <ErrorDialog />
      </QueryClientProvider>
    </LanguageTheme>,
  )
}

/** Renders routes in memory under the application's base path, starting at `entry` (which includes it). */
export function renderRoutes(routes: RouteObject[], entry: string) {
  const router = createMemoryRouter(routes, { basename: '/spotv2', initialEntries: [entry] })
  const result = renderWithClient(<RouterProvider router={router} />)
  return { router, ...result }
}
