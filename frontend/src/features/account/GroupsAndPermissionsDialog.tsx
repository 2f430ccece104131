import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemText from '@mui/material/ListItemText'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import type { CurrentUser } from '../../api/types'
import { permissionLabelKey } from '../../lib/permissions'

const TITLE_ID = 'groups-and-permissions-title'

/** The signed-in user's groups and the permissions they give. */
export function GroupsAndPermissionsDialog({ user, onClose }: { user: CurrentUser; onClose: () => void }) {
  const { t } = useTranslation()
  return (
    <Dialog open onClose={onClose} maxWidth={false} aria-labelledby={TITLE_ID} slotProps={{ paper: { sx: { width: 500, maxWidth: '100%' } } }}>
      <DialogTitle id={TITLE_ID}>{t('account.groupsAndPermissions')}</DialogTitle>
      {/* A long list of permissions scrolls: the keyboard reaches it with Tab, then scrolls it. */}
      <DialogContent tabIndex={0} role="region" aria-labelledby={TITLE_ID}>
        <Typography variant="subtitle2" gutterBottom>
          {t('account.groups')}
        </Typography>
        {user.groups.length === 0 ? (
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('account.noGroup')}
          </Typography>
        ) : (
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 2 }}>
            {user.groups.map((group) => (
              <Chip key={group.id} label={group.name} color="primary" variant="outlined" />
            ))}
          </Stack>
        )}
        <Typography variant="subtitle2">{t('account.permissions')}</Typography>
        {user.permissions.length === 0 ? (
          <Typography color="text.secondary">{t('account.noPermission')}</Typography>
        ) : (
          <List dense disablePadding>
            {user.permissions.map((name) => (
              <ListItem key={name} disableGutters>
                <ListItemText primary={t(permissionLabelKey(name), { defaultValue: name })} />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('actions.close')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}
