import AccountCircle from '@mui/icons-material/AccountCircle'
import Logout from '@mui/icons-material/Logout'
import MailOutlined from '@mui/icons-material/MailOutlined'
import SummarizeOutlined from '@mui/icons-material/SummarizeOutlined'
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined'
import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined'
import Divider from '@mui/material/Divider'
import IconButton from '@mui/material/IconButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import type { CurrentUser } from '../../api/types'
import { GroupsAndPermissionsDialog } from '../../features/account/GroupsAndPermissionsDialog'
import { JOBS_PATH, LOGOUT_PATH, MY_QUALIFICATIONS_PATH, NOTIFICATION_PREFERENCES_PATH } from '../../lib/paths'

export function AccountMenu({ user }: { user: CurrentUser | undefined }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const [showingGroups, setShowingGroups] = useState(false)
  return (
    <>
      <IconButton color="inherit" aria-label={t('account.menu')} aria-haspopup="menu" onClick={(event) => setAnchor(event.currentTarget)}>
        <AccountCircle />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {/* The person's name has its place at once (blank while read): arriving later, it would push the items down under a click. */}
        <ListItemText
          primary={user?.displayName ?? '\u00a0'}
          secondary={user?.login ?? '\u00a0'}
          sx={{ px: 2, py: 0.5, minWidth: 220 }}
        />
        <Divider />
        <MenuItem
          disabled={!user}
          onClick={() => {
            setAnchor(null)
            setShowingGroups(true)
          }}
        >
          <ListItemIcon>
            <VerifiedUserOutlined fontSize="small" />
          </ListItemIcon>
          {t('account.groupsAndPermissions')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null)
            void navigate(MY_QUALIFICATIONS_PATH)
          }}
        >
          <ListItemIcon>
            <WorkspacePremiumOutlined fontSize="small" />
          </ListItemIcon>
          {t('account.myQualifications')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null)
            void navigate(NOTIFICATION_PREFERENCES_PATH)
          }}
        >
          <ListItemIcon>
            <MailOutlined fontSize="small" />
          </ListItemIcon>
          {t('account.notificationPreferences')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null)
            void navigate(JOBS_PATH)
          }}
        >
          <ListItemIcon>
            <SummarizeOutlined fontSize="small" />
          </ListItemIcon>
          {t('account.myJobs')}
        </MenuItem>
        <MenuItem onClick={() => void navigate(LOGOUT_PATH)}>
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          {t('account.logout')}
        </MenuItem>
      </Menu>
      {showingGroups && user && <GroupsAndPermissionsDialog user={user} onClose={() => setShowingGroups(false)} />}
    </>
  )
}
