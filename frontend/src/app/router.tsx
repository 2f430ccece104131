import { createBrowserRouter, type LoaderFunctionArgs, Navigate, redirect, type RouteObject } from 'react-router'
import { Loading } from '../components/Loading'
import { NotFoundPage } from '../components/NotFoundPage'
import { LogoutPage } from '../features/account/LogoutPage'
import { dashboardRoutes } from '../features/dashboards/routes'
import { mappingRoutes } from '../features/mapping/routes'
import { lmsRoutes } from '../features/lms/routes'
import { mediationRoutes } from '../features/mediations/routes'
import { jobRoutes } from '../features/jobs/routes'
import { notificationRoutes } from '../features/notifications/routes'
import { moduleRoutes } from '../features/modules/routes'
import { pathRoutes } from '../features/paths/routes'
import { qualificationRoutes } from '../features/qualifications/routes'
import { referenceRoutes } from '../features/references/routes'
import { reportRoutes } from '../features/reports/routes'
import { subjectRoutes } from '../features/subjects/routes'
import { textsLoader } from '../i18n'
import { APP_BASE, getToken } from '../lib/session'
import { ForbiddenPage } from '../components/ForbiddenPage'
import { RouteErrorPage } from './pages/RouteErrorPage'
import { loginPathFor, MY_DASHBOARD_PATH } from '../lib/paths'
import { RequirePermission } from '../components/RequirePermission'
import { Shell } from './shell/Shell'

/** Every route but Login and Logout needs a session; without one, Login brings the user back here. */
export function requireSession({ request }: LoaderFunctionArgs): null {
  if (getToken()) return null
  const url = new URL(request.url)
  throw redirect(loginPathFor(url.pathname, url.search))
}

/** The administrators' people pages (users and groups, the outbox), one chunk read on the first visit of either. */
const peoplePages = () => import('../features/users/pages')

export const routes: RouteObject[] = [
  {
    ErrorBoundary: RouteErrorPage,
    HydrateFallback: Loading,
    children: [
      { path: 'login', lazy: async () => ({ Component: (await import('../features/account/LoginPage')).LoginPage }) },
      { path: 'logout', Component: LogoutPage },
      {
        loader: requireSession,
        Component: Shell,
        children: [
          // The root opens My dashboard (spec 2 §2).
          { index: true, element: <Navigate to={MY_DASHBOARD_PATH} replace /> },
          { path: 'forbidden', Component: ForbiddenPage },
          ...mappingRoutes,
          ...subjectRoutes,
          ...mediationRoutes,
          ...moduleRoutes,
          ...pathRoutes,
          ...qualificationRoutes,
          ...lmsRoutes,
          ...referenceRoutes,
          ...dashboardRoutes,
          ...reportRoutes,
          ...notificationRoutes,
          ...jobRoutes,
          {
            loader: textsLoader('permissions'),
            shouldRevalidate: () => false,
            children: [
              {
                element: <RequirePermission />,
                children: [
                  {
                    path: 'administration/permissions',
                    lazy: async () => ({ Component: (await import('../features/permissions/PermissionsPage')).PermissionsPage }),
                  },
                  {
                    path: 'administration/cartographies/permissions',
                    lazy: async () => ({ Component: (await import('../features/permissions/CartographyVisibilityPage')).CartographyVisibilityPage }),
                  },
                ],
              },
            ],
          },
          {
            loader: textsLoader('users'),
            shouldRevalidate: () => false,
            children: [
              {
                element: <RequirePermission />,
                children: [
                  {
                    path: 'administration/users/:filter?',
                    lazy: async () => ({ Component: (await peoplePages()).UsersPage }),
                  },
                  {
                    path: 'administration/outbox',
                    lazy: async () => ({ Component: (await peoplePages()).OutboxPage }),
                  },
                ],
              },
            ],
          },
          { path: '*', Component: NotFoundPage },
        ],
      },
    ],
  },
]

export function createAppRouter() {
  return createBrowserRouter(routes, { basename: APP_BASE })
}
