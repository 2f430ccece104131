import { QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router'
import { createQueryClient } from '../api/queryClient'
import { ErrorDialog } from '../app/ErrorDialog'
import { LanguageTheme } from '../app/LanguageTheme'

export function renderWithClient(ui: ReactNode) {
  const queryClient = createQueryClient()
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
