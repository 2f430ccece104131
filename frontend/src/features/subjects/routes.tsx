import type { RouteObject } from 'react-router'
import { RequirePermission } from '../../components/RequirePermission'
import { textsLoader } from '../../i18n'

/** The subject pages and the legacy exit, each loaded on first visit. */
export const subjectRoutes: RouteObject[] = [
  {
    loader: textsLoader('subjects'),
    shouldRevalidate: () => false,
    children: [
      { path: 'subjects/:filter?', lazy: async () => ({ Component: (await import('./SubjectsPage')).SubjectsPage }) },
      { path: 'subject/:subjectId', lazy: async () => ({ Component: (await import('./SubjectPage')).SubjectPage }) },
      { path: 'subject/:subjectId/mindmap', lazy: async () => ({ Component: (await import('./mindmap/MindMapPage')).MindMapPage }) },
      {
        path: 'subject/:subjectId/mindmap/standardized',
        lazy: async () => ({ Component: (await import('./mindmap/StandardizedMindMapPage')).StandardizedMindMapPage }),
      },
      { path: 'subject/:subjectId/diagram', lazy: async () => ({ Component: (await import('./diagram/DiagramPage')).DiagramPage }) },
      { path: 'function/:functionId', lazy: async () => ({ Component: (await import('./FunctionPage')).FunctionPage }) },
      {
        element: <RequirePermission />,
        children: [
          { path: 'subject/add', lazy: async () => ({ Component: (await import('./SubjectFormPage')).NewSubjectPage }) },
          { path: 'subject/edit/:subjectId', lazy: async () => ({ Component: (await import('./SubjectFormPage')).EditSubjectPage }) },
          { path: 'subject/createFrom/:subjectId', lazy: async () => ({ Component: (await import('./SubjectFormPage')).CreateFromSubjectPage }) },
        ],
      },
      { path: 'v1', lazy: async () => ({ Component: (await import('./LegacyRedirectPage')).V1RedirectionPage }) },
    ],
  },
]
