import type { RouteObject } from 'react-router'
import { RequirePermission } from '../../app/RequirePermission'
import { holds } from '../../lib/permissions'

/** The module and path reference lists, loaded on first visit; both need perm_TrainingReferenceAdmin (spec 2 §2). */
export const referenceRoutes: RouteObject[] = [
  {
    element: <RequirePermission check={holds('perm_TrainingReferenceAdmin')} />,
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
