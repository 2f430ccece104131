import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined'
import Badge from '@mui/material/Badge'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemText from '@mui/material/ListItemText'
import Popover from '@mui/material/Popover'
import Typography from '@mui/material/Typography'
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import dayjs from 'dayjs'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { formatDate } from '../../lib/dates'
import { subjectPath } from '../paths'

type Alerts = components['schemas']['Alerts']
type Alert = components['schemas']['Alert']

/** The page where each kind of target is acted on; an area adding a target type adds its address here. */
const TARGET_PATHS: Record<Alert['target']['type'], (id: number) => string> = {
  subject: subjectPath,
}

const REFRESH_EVERY = 3 * 60_000

const alertsQuery = queryOptions({
  queryKey: queryKeys.account.alerts,
  queryFn: () => data(api.GET('/backend/api/v2/account/alerts')),
  refetchInterval: REFRESH_EVERY,
  // Back in the window, the user sees what awaits them now.
  refetchOnWindowFocus: 'always',
})

const sameAlert = (a: Alert, b: Alert) => a.kind === b.kind && a.target.type === b.target.type && a.target.id === b.target.id

/** The bell of the header: what awaits the user (DESIGN §10), with their count as a badge, each
 * alert a sentence in the reader's language linking to the page where it is acted on. */
export function AlertsBell() {
  const { t, i18n } = useTranslation()
  const titleId = useId()
  const queryClient = useQueryClient()
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const { data: found } = useQuery(alertsQuery)
  const count = found?.count ?? 0
  const alerts = found?.alerts ?? []

  // Followed, the alert is acted on: it leaves the bell at once; the next reading confirms it.
  const follow = (alert: Alert) => {
    setAnchor(null)
    queryClient.setQueryData<Alerts>(queryKeys.account.alerts, (current) =>
      current && { alerts: current.alerts.filter((other) => !sameAlert(other, alert)), count: Math.max(0, current.count - 1) },
    )
  }

  return (
    <>
      <IconButton
        color="inherit"
        aria-label={count > 0 ? t('alerts.openWithCount', { count }) : t('alerts.open')}
        aria-haspopup="dialog"
        aria-expanded={anchor !== null}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {/* The button's name says the count; the badge shows it (up to 99+) to the eye only. */}
        <Badge
          badgeContent={count > 0 ? count : undefined}
          max={99}
          slotProps={{ badge: { 'aria-hidden': true } }}
          sx={{ '& .MuiBadge-badge': { bgcolor: 'error.text', color: 'common.white', fontWeight: 600 } }}
        >
          <NotificationsOutlined />
        </Badge>
      </IconButton>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { width: 380, maxWidth: 'calc(100% - 16px)', maxHeight: '70vh' } } }}
      >
        <Typography id={titleId} variant="subtitle1" component="h2" sx={{ px: 2, pt: 1.5, pb: 0.5, fontWeight: 600 }}>
          {t('alerts.title')}
        </Typography>
        {alerts.length === 0 ? (
          <Typography variant="body2" sx={{ px: 2, pb: 2, color: 'text.secondary' }}>
            {t('alerts.empty')}
          </Typography>
        ) : (
          <List dense disablePadding>
            {alerts.map((alert) => (
              <ListItem key={`${alert.kind}:${alert.target.type}:${alert.target.id}`} disablePadding>
                <ListItemButton component={RouterLink} to={TARGET_PATHS[alert.target.type](alert.target.id)} onClick={() => follow(alert)}>
                  <ListItemText
                    primary={t(`alerts.kinds.${alert.kind}`, alert.args)}
                    secondary={`${formatDate(alert.date, i18n.language)} ${dayjs(alert.date).format('HH:mm')}`}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
        {count > alerts.length && (
          <Box sx={{ px: 2, py: 1, borderTop: 1, borderColor: 'divider' }}>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('alerts.newestOf', { shown: alerts.length, count })}
            </Typography>
          </Box>
        )}
      </Popover>
    </>
  )
}
