import type { RouteObject } from 'react-router'
import { RequirePermission } from '../../app/RequirePermission'
import { mayReport } from './permissions'

/** The path report page (spec 2 §2), loaded on first visit; perm_TableauBord or perm_TrainingManagement, otherwise Forbidden. */
export const reportRoutes: RouteObject[] = [
  {
    element: <RequirePermission check={mayReport} />,
    children: [{ path: 'administration/trainingPathReport', lazy: async () => ({ Component: (await import('./ReportPage')).ReportPage }) }],
  },
]
