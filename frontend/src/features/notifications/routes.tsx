import type { RouteObject } from 'react-router'
import { textsLoader } from '../../i18n'

/** The signed-in person's notification preferences (the account menu), loaded on first visit. */
export const notificationRoutes: RouteObject[] = [
  {
    loader: textsLoader('notifications'),
    shouldRevalidate: () => false,
    children: [
      {
        path: 'account/notifications',
        lazy: async () => ({ Component: (await import('./NotificationPreferencesPage')).NotificationPreferencesPage }),
      },
    ],
  },
]
