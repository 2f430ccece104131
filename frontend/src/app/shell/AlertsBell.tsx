import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined'
import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { type Alert, alertKey, alertPath, alertWhen } from '../../lib/alerts'
import { HeaderPopover } from './HeaderPopover'

type Alerts = components['schemas']['Alerts']

const REFRESH_EVERY = 3 * 60_000

const alertsQuery = queryOptions({
  queryKey: queryKeys.account.alerts,
  queryFn: () => data(api.GET('/backend/api/v2/account/alerts')),
  refetchInterval: REFRESH_EVERY,
  // Back in the window, the user sees what awaits them now.
  refetchOnWindowFocus: 'always',
})

const sameAlert = (a: Alert, b: Alert) => alertKey(a) === alertKey(b)

/** The bell of the header: what awaits the user (DESIGN §10), with their count as a badge, each
 * alert a sentence in the reader's language linking to the page where it is acted on. */
export function AlertsBell() {
  const { t, i18n } = useTranslation()
  const queryClient = useQueryClient()
  const { data: found } = useQuery(alertsQuery)
  const count = found?.count ?? 0
  const alerts = found?.alerts

  // Followed, the alert is acted on: it leaves the bell at once; the next reading confirms it.
  const follow = (alert: Alert) => {
    queryClient.setQueryData<Alerts>(queryKeys.account.alerts, (current) =>
      current && { alerts: current.alerts.filter((other) => !sameAlert(other, alert)), count: Math.max(0, current.count - 1) },
    )
  }

  return (
    <HeaderPopover
      icon={<NotificationsOutlined />}
      label={count > 0 ? t('alerts.openWithCount', { count }) : t('alerts.open')}
      count={count}
      title={t('alerts.title')}
      empty={t('alerts.empty')}
      items={alerts?.map((alert) => ({
        key: alertKey(alert),
        to: alertPath(alert.target),
        primary: t(`alerts.kinds.${alert.kind}`, alert.args),
        secondary: alertWhen(alert, t, i18n.language, true),
        onFollow: () => follow(alert),
      }))}
      footer={
        alerts &&
        count > alerts.length && (
          <Box sx={{ px: 2, py: 1, borderTop: 1, borderColor: 'divider' }}>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('alerts.newestOf', { shown: alerts.length, count })}
            </Typography>
          </Box>
        )
      }
    />
  )
}
