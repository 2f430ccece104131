import Drawer from '@mui/material/Drawer'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import ListSubheader from '@mui/material/ListSubheader'
import Toolbar from '@mui/material/Toolbar'
import Typography from '@mui/material/Typography'
import { alpha } from '@mui/material/styles'
import { useTranslation } from 'react-i18next'
import { NavLink } from 'react-router'
import type { HasPermissions } from '../../lib/permissions'
import type { NavigationEntry } from '../../lib/navigation'
import { NAVIGATION } from './navigation'

export const DRAWER_WIDTH = 264

function sections(entries: NavigationEntry[]): [string, NavigationEntry[]][] {
  const grouped = new Map<string, NavigationEntry[]>()
  entries.forEach((entry) => grouped.set(entry.section, [...(grouped.get(entry.section) ?? []), entry]))
  return [...grouped.entries()]
}

interface NavigationDrawerProps {
  user: HasPermissions | undefined
  open: boolean
  /** Permanent beside the page on wide screens, over the page on narrow ones. */
  docked: boolean
  onClose: () => void
}

export function NavigationDrawer({ user, open, docked, onClose }: NavigationDrawerProps) {
  const { t } = useTranslation()
  const entries = user ? NAVIGATION.filter((entry) => entry.allowed(user)) : []
  return (
    <Drawer
      variant={docked ? 'persistent' : 'temporary'}
      open={open}
      onClose={onClose}
      sx={{
        ...(docked && { width: DRAWER_WIDTH, flexShrink: 0 }),
        '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
      }}
    >
      <Toolbar />
      <nav aria-label={t('nav.label')}>
        {user && entries.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
            {t('nav.empty')}
          </Typography>
        )}
        {sections(entries).map(([section, sectionEntries]) => (
          <List key={section} subheader={<ListSubheader>{t(section)}</ListSubheader>}>
            {sectionEntries.map(({ to, label, icon: Icon }) => (
              // A list holds list items only: the link sits in one.
              <ListItem key={to} disablePadding>
                <ListItemButton
                  component={NavLink}
                  to={to}
                  onClick={docked ? undefined : onClose}
                  sx={(theme) => ({
                    mx: 1,
                    borderRadius: 1,
                    '&.active': {
                      bgcolor: alpha(theme.palette.accent.main, 0.12),
                      color: theme.palette.accent.text,
                      '& .MuiListItemIcon-root': { color: theme.palette.accent.text },
                    },
                  })}
                >
                  <ListItemIcon sx={{ minWidth: 40 }}>
                    <Icon />
                  </ListItemIcon>
                  <ListItemText primary={t(label)} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        ))}
      </nav>
    </Drawer>
  )
}
