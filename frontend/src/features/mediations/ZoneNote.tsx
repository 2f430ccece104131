import type { SxProps, Theme } from '@mui/material/styles'
import Typography from '@mui/material/Typography'
import type { Dayjs } from 'dayjs'
import { useTranslation } from 'react-i18next'
import { organizationTimeZone, zoneNote } from '../../lib/dates'

/**
 * Under date and time inputs, the organisation's zone they are read in, when the browser's clocks read
 * `at` (the moment being entered) differently; nothing when they agree.
 */
export function ZoneNote({ at, sx }: { at: Dayjs; sx?: SxProps<Theme> }) {
  const { t, i18n } = useTranslation()
  const offset = zoneNote(at, i18n.language)
  if (offset === undefined) return null
  return (
    <Typography variant="body2" color="text.secondary" sx={sx}>
      {t('mediations.zoneNote', { zone: organizationTimeZone(), offset })}
    </Typography>
  )
}
