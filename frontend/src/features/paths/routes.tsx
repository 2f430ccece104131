import type { RouteObject } from 'react-router'
import { RequirePermission } from '../../components/RequirePermission'
import { textsLoader } from '../../i18n'

/**
 * The training path pages, each loaded on first visit. The list and the view are open to any signed-in
 * user (the server decides which paths each reads); creating needs perm_TrainingManagement, editing
 * the path's creator or a path administrator, which the edit page checks on the path (spec 2 §2).
 */
export const pathRoutes: RouteObject[] = [
  {
    loader: textsLoader('paths'),
    shouldRevalidate: () => false,
    children: [
      { path: 'training/paths/:filter?', lazy: async () => ({ Component: (await import('./PathsPage')).PathsPage }) },
      { path: 'training/path/view/:pathId', lazy: async () => ({ Component: (await import('./PathViewPage')).default }) },
      { path: 'training/path/edit/:pathId', lazy: async () => ({ Component: (await import('./PathFormPage')).EditPathPage }) },
      {
        element: <RequirePermission />,
        children: [{ path: 'training/path/add/:pathId?', lazy: async () => ({ Component: (await import('./PathFormPage')).NewPathPage }) }],
      },
    ],
  },
]
