import type { RouteObject } from 'react-router'

/** Spot's own learning platform, for every signed-in user (spec 2 §2 /lms). */
export const lmsRoutes: RouteObject[] = [{ path: 'lms', lazy: async () => ({ Component: (await import('./LmsPage')).LmsPage }) }]
