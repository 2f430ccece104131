import type { RouteObject } from 'react-router'
import { textsLoader } from '../../i18n'

/** The mediation pages, each loaded on first visit; any signed-in user may reach them (the server decides what each sees). */
export const mediationRoutes: RouteObject[] = [
  {
    loader: textsLoader('mediations'),
    shouldRevalidate: () => false,
    children: [
      { path: 'mediations/:filter?', lazy: async () => ({ Component: (await import('./MediationsPage')).MediationsPage }) },
      { path: 'mediation/add', lazy: async () => ({ Component: (await import('./MediationFormPage')).NewMediationPage }) },
      { path: 'mediation/edit/:mediationId', lazy: async () => ({ Component: (await import('./MediationFormPage')).EditMediationPage }) },
      { path: 'mediation/view/:mediationId', lazy: async () => ({ Component: (await import('./MediationViewPage')).MediationViewPage }) },
      { path: 'mediation/report/:mediationId', lazy: async () => ({ Component: (await import('./MediationReportPage')).MediationReportPage }) },
    ],
  },
]
