import type { RouteObject } from 'react-router'
import { RequirePermission } from '../../components/RequirePermission'

/** The training module pages, each loaded on first visit; all of them need perm_TrainingManagement (spec 2 §2). */
export const moduleRoutes: RouteObject[] = [
  {
    element: <RequirePermission />,
    children: [
      { path: 'training/modules/:filter?', lazy: async () => ({ Component: (await import('./ModulesPage')).ModulesPage }) },
      { path: 'training/module/view/:moduleId', lazy: async () => ({ Component: (await import('./ModuleViewPage')).ModuleViewPage }) },
      { path: 'training/module/add', lazy: async () => ({ Component: (await import('./ModuleFormPage')).NewModulePage }) },
      { path: 'training/module/edit/:moduleId', lazy: async () => ({ Component: (await import('./ModuleFormPage')).EditModulePage }) },
      { path: 'training/module/createFrom/:moduleId', lazy: async () => ({ Component: (await import('./ModuleFormPage')).CreateFromModulePage }) },
    ],
  },
]
