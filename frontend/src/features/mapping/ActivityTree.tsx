import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import List from '@mui/material/List'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemText from '@mui/material/ListItemText'
import Skeleton from '@mui/material/Skeleton'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { subjectsAtPath } from '../../lib/paths'
import { type ActivityNode, type Pictogram, pictogramImageQuery } from './api'

interface ActivityTreeProps {
  cartographyId: number
  activities: ActivityNode[]
  /** Pictograms by activity id. */
  pictograms: Map<number, Pictogram[]>
  onHighlight: (activityId: number | undefined) => void
  depth?: number
}

/** The cartography's activities, nested, each leading to its subjects. */
export function ActivityTree({ cartographyId, activities, pictograms, onHighlight, depth = 0 }: ActivityTreeProps) {
  const { t } = useTranslation()
  return (
    <List disablePadding dense={depth > 0}>
      {activities.map((activity) => (
        <li key={activity.id}>
          <ListItemButton
            component={RouterLink}
            to={subjectsAtPath(activity.id)}
            onMouseEnter={() => onHighlight(activity.id)}
            onMouseLeave={() => onHighlight(undefined)}
            onFocus={() => onHighlight(activity.id)}
            onBlur={() => onHighlight(undefined)}
            sx={{ pl: 2 + depth * 3, borderRadius: 1, gap: 1.5 }}
          >
            {(pictograms.get(activity.id) ?? []).map((pictogram) => (
              <PictogramImage key={pictogram.id} cartographyId={cartographyId} pictogram={pictogram} />
            ))}
            <ListItemText
              primary={activity.name}
              slotProps={{ primary: { sx: { fontWeight: depth === 0 ? 600 : 400 } } }}
            />
            <Chip
              size="small"
              color={activity.subjectsCount > 0 ? 'primary' : 'default'}
              variant={depth === 0 ? 'filled' : 'outlined'}
              label={activity.subjectsCount}
              aria-label={t('mapping.cartography.subjectCount', { count: activity.subjectsCount })}
              title={t('mapping.cartography.subjectCount', { count: activity.subjectsCount })}
            />
          </ListItemButton>
          {activity.activities.length > 0 && (
            <ActivityTree
              cartographyId={cartographyId}
              activities={activity.activities}
              pictograms={pictograms}
              onHighlight={onHighlight}
              depth={depth + 1}
            />
          )}
        </li>
      ))}
    </List>
  )
}

const PICTOGRAM_SIZE = 28

/** Decorative: the activity's name is written beside it. */
function PictogramImage({ cartographyId, pictogram }: { cartographyId: number; pictogram: Pictogram }) {
  const { data: image } = useQuery(pictogramImageQuery(cartographyId, pictogram.id))
  if (!image) return <Skeleton variant="rounded" width={PICTOGRAM_SIZE} height={PICTOGRAM_SIZE} />
  return (
    <Box
      component="img"
      src={image}
      alt=""
      data-testid="pictogram"
      sx={{ width: PICTOGRAM_SIZE, height: PICTOGRAM_SIZE, objectFit: 'contain', flexShrink: 0 }}
    />
  )
}
