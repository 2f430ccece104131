import Badge from '@mui/material/Badge'
import IconButton from '@mui/material/IconButton'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemText from '@mui/material/ListItemText'
import Popover from '@mui/material/Popover'
import Typography from '@mui/material/Typography'
import { useId, useState, type ReactNode } from 'react'
import { Link as RouterLink } from 'react-router'
import { Loading } from '../../components/Loading'

export interface HeaderPopoverItem {
  key: string
  to: string
  primary: string
  secondary: string
  onFollow?: () => void
}

interface Props {
  icon: ReactNode
  /** The button's name; it says the count, which the badge shows to the eye only. */
  label: string
  count: number
  title: string
  empty: string
  /** Undefined until read: the list then says it is loading, not that it is empty. */
  items: HeaderPopoverItem[] | undefined
  footer?: ReactNode
}

/** An icon of the header with a count badge, opening a list of links (the bell, the teamwork menu). */
export function HeaderPopover({ icon, label, count, title, empty, items, footer }: Props) {
  const titleId = useId()
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={label}
        aria-haspopup="dialog"
        aria-expanded={anchor !== null}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <Badge
          badgeContent={count > 0 ? count : undefined}
          max={99}
          slotProps={{ badge: { 'aria-hidden': true } }}
          sx={{ '& .MuiBadge-badge': { bgcolor: 'error.text', color: 'common.white', fontWeight: 600 } }}
        >
          {icon}
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
          {title}
        </Typography>
        {items === undefined ? (
          <Loading />
        ) : items.length === 0 ? (
          <Typography variant="body2" sx={{ px: 2, pb: 2, color: 'text.secondary' }}>
            {empty}
          </Typography>
        ) : (
          <List dense disablePadding>
            {items.map((item) => (
              <ListItem key={item.key} disablePadding>
                <ListItemButton
                  component={RouterLink}
                  to={item.to}
                  onClick={() => {
                    setAnchor(null)
                    item.onFollow?.()
                  }}
                >
                  <ListItemText primary={item.primary} secondary={item.secondary} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
        {footer}
      </Popover>
    </>
  )
}
