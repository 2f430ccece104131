import type { RouteObject } from 'react-router'
import { textsLoader } from '../../i18n'

/** Spot's own learning platform, for every signed-in user (spec 2 §2 /lms), and its SCORM player. */
export const lmsRoutes: RouteObject[] = [
  {
    loader: textsLoader('lms'),
    shouldRevalidate: () => false,
    children: [
      { path: 'lms', lazy: async () => ({ Component: (await import('./LmsPage')).LmsPage }) },
      { path: 'lms/courses/:courseId/player', lazy: async () => ({ Component: (await import('./player/PlayerPage')).PlayerPage }) },
    ],
  },
]
