import Alert from '@mui/material/Alert'
import { useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { connection } from '../../lib/connection'

/**
 * Says, above every page, that Spot is offline (lib/connection): the installed app opens from what its
 * service worker keeps, but nothing the server knows can be read or saved until the network is back.
 */
export function OfflineNotice() {
  const { t } = useTranslation()
  const offline = useSyncExternalStore(connection.subscribe, connection.offline)
  if (!offline) return null
  return (
    <Alert severity="warning" role="status" sx={{ mb: 2 }}>
      {t('app.offline')}
    </Alert>
  )
}
