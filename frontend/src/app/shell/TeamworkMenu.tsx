import ForumOutlined from '@mui/icons-material/ForumOutlined'
import Badge from '@mui/material/Badge'
import IconButton from '@mui/material/IconButton'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemText from '@mui/material/ListItemText'
import Popover from '@mui/material/Popover'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import dayjs from 'dayjs'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { type UnreadDiscussion, unreadDiscussionsQuery } from '../../components/discussion/api'
import { DISCUSSION_PARAM } from '../../components/discussion/DiscussionPanel'
import { formatDate } from '../../lib/dates'
import { cartographyPath, functionPath, subjectPath } from '../paths'

/** The page of each kind of item with a discussion; an area whose items get one adds its address here. */
const ITEM_PATHS: Record<string, (id: number) => string> = {
  cartography: cartographyPath,
  function: functionPath,
  subject: subjectPath,
}

/** The item's page with its discussion panel open. */
export const discussionLink = (item: UnreadDiscussion) => {
  const path = ITEM_PATHS[item.parentType]
  return path ? `${path(item.parentId)}?${DISCUSSION_PARAM}=open` : undefined
}

/** The teamwork menu of the header: the discussions of items the user follows or contributed to
 * that have messages from others since the user last read them, newest first, with their count as
 * a badge; each opens its item's page with the discussion panel open. */
export function TeamworkMenu() {
  const { t, i18n } = useTranslation()
  const titleId = useId()
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const { data: items = [] } = useQuery(unreadDiscussionsQuery)
  const count = items.length

  return (
    <>
      <IconButton
        color="inherit"
        aria-label={count > 0 ? t('discussion.teamwork.openWithCount', { count }) : t('discussion.teamwork.open')}
        aria-haspopup="dialog"
        aria-expanded={anchor !== null}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <Badge
          badgeContent={count}
          max={99}
          invisible={count === 0}
          sx={{ '& .MuiBadge-badge': { bgcolor: 'error.text', color: 'common.white', fontWeight: 600 } }}
        >
          <ForumOutlined />
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
          {t('discussion.teamwork.title')}
        </Typography>
        {count === 0 ? (
          <Typography variant="body2" sx={{ px: 2, pb: 2, color: 'text.secondary' }}>
            {t('discussion.teamwork.empty')}
          </Typography>
        ) : (
          <List dense disablePadding>
            {items.map((item) => (
              <ListItem key={item.discussionId} disablePadding>
                <ListItemButton component={RouterLink} to={discussionLink(item) ?? '#'} onClick={() => setAnchor(null)}>
                  <ListItemText
                    primary={`${t(`discussion.teamwork.types.${item.parentType}`, { defaultValue: '' })} · ${item.parentName}`}
                    secondary={`${t('discussion.teamwork.unread', { count: item.unreadCount })} · ${formatDate(item.lastDate, i18n.language)} ${dayjs(item.lastDate).format('HH:mm')}`}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
      </Popover>
    </>
  )
}
