import type { RouteObject } from 'react-router'
import { RequirePermission } from '../../components/RequirePermission'
import { textsLoader } from '../../i18n'

/**
 * The qualification pages, each loaded on first visit (spec 2 §2 Qualifications). The list and the view
 * are open to any signed-in user; creating needs perm_TableauBord or perm_QualificationAdmin; editing
 * perm_QualificationAdmin, which the edit page checks on the qualification's `can`.
 */
export const qualificationRoutes: RouteObject[] = [
  {
    loader: textsLoader('qualifications'),
    shouldRevalidate: () => false,
    children: [
      { path: 'qualifications/:filter?', lazy: async () => ({ Component: (await import('./QualificationsPage')).QualificationsPage }) },
      { path: 'qualification/view/:qualificationId', lazy: async () => ({ Component: (await import('./QualificationViewPage')).QualificationViewPage }) },
      { path: 'qualification/edit/:qualificationId', lazy: async () => ({ Component: (await import('./QualificationFormPage')).EditQualificationPage }) },
      {
        element: <RequirePermission />,
        children: [{ path: 'qualification/add', lazy: async () => ({ Component: (await import('./QualificationFormPage')).NewQualificationPage }) }],
      },
    ],
  },
]
