import type { RouteObject } from 'react-router'
import { RequirePermission } from '../../components/RequirePermission'
import { textsLoader } from '../../i18n'

/** The path report page (spec 2 §2), loaded on first visit; for those the server says may report (lib/routes.ts), others go to Forbidden. */
export const reportRoutes: RouteObject[] = [
  {
    loader: textsLoader('reports'),
    shouldRevalidate: () => false,
    children: [
      {
        element: <RequirePermission />,
        children: [{ path: 'administration/trainingPathReport', lazy: async () => ({ Component: (await import('./ReportPage')).ReportPage }) }],
      },
    ],
  },
]
