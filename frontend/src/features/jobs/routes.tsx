import type { RouteObject } from 'react-router'
import { textsLoader } from '../../i18n'

/** The signed-in person's jobs (the account menu, the bell), loaded on first visit. */
export const jobRoutes: RouteObject[] = [
  {
    loader: textsLoader('jobs'),
    shouldRevalidate: () => false,
    children: [{ path: 'jobs', lazy: async () => ({ Component: (await import('./JobsPage')).JobsPage }) }],
  },
]
