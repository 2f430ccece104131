import Chip from '@mui/material/Chip'
import { useTranslation } from 'react-i18next'
import type { CompletionLevel } from './api'

const LEVEL_COLOURS = { high: 'success', medium: 'accent', low: 'error' } as const

/** How many people of a group are at a completion level (spec 2 §4: high, medium, low). */
export function LevelCount({ level, count }: { level: Exclude<CompletionLevel, 'none'>; count: number }) {
  const { t } = useTranslation()
  return (
    <Chip
      size="small"
      variant="outlined"
      data-level={level}
      label={t(`dashboards.levels.${level}Count`, { count })}
      sx={{ color: `${LEVEL_COLOURS[level]}.text`, borderColor: `${LEVEL_COLOURS[level]}.main`, fontWeight: 600 }}
    />
  )
}

/** A person's completion level, as a label in its colour; none for who has no current path (the completion says so). */
export function LevelLabel({ level }: { level: CompletionLevel }) {
  const { t } = useTranslation()
  if (level === 'none') return null
  return (
    <Chip
      size="small"
      variant="outlined"
      data-level={level}
      label={t(`dashboards.levels.${level}`)}
      sx={{ color: `${LEVEL_COLOURS[level]}.text`, borderColor: `${LEVEL_COLOURS[level]}.main` }}
    />
  )
}
