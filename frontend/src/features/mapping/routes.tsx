import type { RouteObject } from 'react-router'

/** The map's pages, each loaded on first visit. */
export const mappingRoutes: RouteObject[] = [
  { path: 'sites', lazy: async () => ({ Component: (await import('./SitesPage')).SitesPage }) },
  { path: 'cartographies/:filter?', lazy: async () => ({ Component: (await import('./CartographiesPage')).CartographiesPage }) },
  { path: 'functions/:filter?', lazy: async () => ({ Component: (await import('./FunctionsPage')).FunctionsPage }) },
  { path: 'cartography/:cartographyId', lazy: async () => ({ Component: (await import('./CartographyPage')).CartographyPage }) },
]
