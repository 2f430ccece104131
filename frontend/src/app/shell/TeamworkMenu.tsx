import ForumOutlined from '@mui/icons-material/ForumOutlined'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { type UnreadDiscussion, unreadDiscussionsQuery } from '../../components/discussion/api'
import { DISCUSSION_PARAM } from '../../components/discussion/DiscussionPanel'
import { formatDateTime } from '../../lib/dates'
import { cartographyPath, functionPath, mediationPath, qualificationPath, subjectPath } from '../../lib/paths'
import { HeaderPopover } from './HeaderPopover'

/** The page of each kind of item with a discussion; an area whose items get one adds its address here. */
const ITEM_PATHS: Record<string, (id: number) => string> = {
  cartography: cartographyPath,
  function: functionPath,
  subject: subjectPath,
  mediation: mediationPath,
  qualification: qualificationPath,
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
  const { data: items } = useQuery(unreadDiscussionsQuery)
  const count = items?.length ?? 0

  return (
    <HeaderPopover
      icon={<ForumOutlined />}
      label={count > 0 ? t('discussion.teamwork.openWithCount', { count }) : t('discussion.teamwork.open')}
      count={count}
      title={t('discussion.teamwork.title')}
      empty={t('discussion.teamwork.empty')}
      items={items?.map((item) => ({
        key: String(item.discussionId),
        to: discussionLink(item) ?? '#',
        primary: `${t(`discussion.teamwork.types.${item.parentType}`, { defaultValue: '' })} · ${item.parentName}`,
        secondary: `${t('discussion.teamwork.unread', { count: item.unreadCount })} · ${formatDateTime(item.lastDate, i18n.language)}`,
      }))}
    />
  )
}
