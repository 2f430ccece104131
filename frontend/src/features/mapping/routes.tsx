import type { RouteObject } from 'react-router'
import { textsLoader } from '../../i18n'

/** The map's pages, each loaded on first visit. */
export const mappingRoutes: RouteObject[] = [
  {
    loader: textsLoader('mapping'),
    shouldRevalidate: () => false,
    children: [
      { path: 'sites', lazy: async () => ({ Component: (await import('./SitesPage')).SitesPage }) },
      { path: 'cartographies/:filter?', lazy: async () => ({ Component: (await import('./CartographiesPage')).CartographiesPage }) },
      { path: 'functions/:filter?', lazy: async () => ({ Component: (await import('./FunctionsPage')).FunctionsPage }) },
      { path: 'cartography/:cartographyId', lazy: async () => ({ Component: (await import('./CartographyPage')).CartographyPage }) },
      { path: 'site/:siteId/documents', lazy: async () => ({ Component: (await import('./DocumentsPage')).DocumentsPage }) },
    ],
  },
]
