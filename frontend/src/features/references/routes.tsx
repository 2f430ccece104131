import type { RouteObject } from 'react-router'
import { RequirePermission } from '../../components/RequirePermission'

/** The module and path reference lists, loaded on first visit; both need perm_TrainingReferenceAdmin (spec 2 §2). */
export const referenceRoutes: RouteObject[] = [
  {
    element: <RequirePermission />,
    children: [
      {
        path: 'administration/trainingModuleReferences/:filter?',
        lazy: async () => ({ Component: (await import('./ReferencesPage')).ModuleReferencesPage }),
      },
      {
        path: 'administration/trainingPathReferences/:filter?',
        lazy: async () => ({ Component: (await import('./ReferencesPage')).PathReferencesPage }),
      },
    ],
  },
]
