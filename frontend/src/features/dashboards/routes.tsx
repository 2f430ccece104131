import type { RouteObject } from 'react-router'
import { RequirePermission } from '../../components/RequirePermission'
import { textsLoader } from '../../i18n'

/**
 * The dashboards (spec 2 §2), each loaded on first visit. My dashboard and one's own qualification
 * status are open to every signed-in user (the user page checks another user itself); the Dashboard manager,
 * path progress, the group and cartography qualification dashboards and the skills matrix need perm_TableauBord, the
 * contributions perm_VisuTrack.
 */
export const dashboardRoutes: RouteObject[] = [
  {
    loader: textsLoader('dashboards'),
    shouldRevalidate: () => false,
    children: [
      { path: 'dashboards/mine', lazy: async () => ({ Component: (await import('./MyDashboardPage')).MyDashboardPage }) },
      {
        path: 'dashboard/qualifications/user/:userId?',
        lazy: async () => ({ Component: (await import('./QualificationDashboardPages')).UserQualificationDashboardPage }),
      },
      {
        element: <RequirePermission />,
        children: [
          { path: 'dashboards/manager', lazy: async () => ({ Component: (await import('./ManagerDashboardPage')).ManagerDashboardPage }) },
          { path: 'dashboards/trainingPath', lazy: async () => ({ Component: (await import('./TrainingPathDashboardPage')).TrainingPathDashboardPage }) },
          {
            path: 'dashboards/trainingPath/group/:groupId',
            lazy: async () => ({ Component: (await import('./GroupTrainingPathDashboardPage')).GroupTrainingPathDashboardPage }),
          },
          {
            path: 'dashboards/qualifications/cartography/:cartographyId',
            lazy: async () => ({ Component: (await import('./QualificationDashboardPages')).CartographyQualificationDashboardPage }),
          },
          {
            path: 'dashboards/qualifications/cartography/:cartographyId/matrix',
            lazy: async () => ({ Component: (await import('./SkillsMatrixPage')).SkillsMatrixPage }),
          },
          {
            path: 'dashboard/qualifications/group/:groupId',
            lazy: async () => ({ Component: (await import('./QualificationDashboardPages')).GroupQualificationDashboardPage }),
          },
        ],
      },
      {
        element: <RequirePermission />,
        children: [
          { path: 'dashboards/contributions', lazy: async () => ({ Component: (await import('./ContributionsDashboardPage')).ContributionsDashboardPage }) },
        ],
      },
    ],
  },
]
