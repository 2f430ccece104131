import AddCircleOutlineOutlined from '@mui/icons-material/AddCircleOutlineOutlined'
import IconButton from '@mui/material/IconButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import type { CurrentUser } from '../../api/types'
import { ADD_MENU } from './navigation'

/** The plus menu of the header: the creations the user may make (absent when there is none). The
 * target page's guard and the server decide again. */
export function AddMenu({ user }: { user: CurrentUser | undefined }) {
  const { t } = useTranslation()
  const menuId = useId()
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const entries = user ? ADD_MENU.filter((entry) => entry.allowed(user)) : []
  if (entries.length === 0) return null
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t('addMenu.open')}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        aria-controls={anchor ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <AddCircleOutlineOutlined />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {entries.map(({ to, label, icon: Icon }) => (
          <MenuItem key={to} component={RouterLink} to={to} onClick={() => setAnchor(null)}>
            <ListItemIcon>
              <Icon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t(label)}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  )
}
