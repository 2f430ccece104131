import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { InactiveMark } from '../../components/people/InactiveMark'
import { formatDateTime } from '../../lib/dates'
import type { HistoryEntry } from './api'
import { formatGrade } from './viewTexts'

interface PathHistoryProps {
  entries: HistoryEntry[]
  /** The name of each module by index, for the path's timeline; none under a module's own panel. */
  moduleNames?: string[]
  /** The ids of the people who left (the path's `inactivePeople`): marked where they appear. */
  inactive: readonly number[]
  label: string
}

/** What happened, oldest first: when, who (the name as it was), what, and a grade's value and comment. */
export function PathHistory({ entries, moduleNames, inactive, label }: PathHistoryProps) {
  const { t, i18n } = useTranslation()
  if (entries.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t('trainingPath.history.empty')}
      </Typography>
    )
  }
  return (
    <Box component="ol" aria-label={label} sx={{ m: 0, pl: 0, listStyle: 'none' }}>
      {entries.map((entry, index) => {
        const module = moduleNames && entry.moduleIndex !== null ? moduleNames[entry.moduleIndex] : undefined
        return (
          <Box component="li" key={index} sx={{ py: 0.75, borderBottom: 1, borderColor: 'divider', overflowWrap: 'anywhere' }}>
            <Typography variant="body2">
              <Box component="time" dateTime={entry.at} sx={{ color: 'text.secondary', mr: 1 }}>
                {formatDateTime(entry.at, i18n.language)}
              </Box>
              {t(`trainingPath.events.${entry.event}`, { user: entry.userName })}
              {entry.user && inactive.includes(entry.user.id) && <InactiveMark />}
              {module !== undefined && ` · ${module}`}
              {entry.grade !== null && ` · ${t('trainingPath.outOfTen', { value: formatGrade(entry.grade, i18n.language) })}`}
            </Typography>
            {entry.comment && (
              <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-line' }}>
                {entry.comment}
              </Typography>
            )}
          </Box>
        )
      })}
    </Box>
  )
}
