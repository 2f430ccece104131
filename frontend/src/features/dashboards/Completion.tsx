import Box from '@mui/material/Box'
import LinearProgress from '@mui/material/LinearProgress'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { completionColour } from './rules'

/**
 * A completion as a bar and a percentage in the spec's colours (2 §9: under 33 error, 33 to 65 the
 * accent, 66 and above success); -1 reads not quantifiable.
 */
export function Completion({ completion, label }: { completion: number; label: string }) {
  const { t } = useTranslation()
  const colour = completionColour(completion)
  if (colour === undefined) {
    return (
      <Typography variant="body2" color="text.secondary" data-completion="none">
        {t('dashboards.notQuantifiable')}
      </Typography>
    )
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
      <LinearProgress
        variant="determinate"
        value={completion}
        aria-label={label}
        sx={{ flex: 1, minWidth: 48, height: 8, borderRadius: 4, '& .MuiLinearProgress-bar': { bgcolor: `${colour}.main` } }}
      />
      <Typography variant="body2" sx={{ fontWeight: 600, color: `${colour}.text`, whiteSpace: 'nowrap' }} data-completion={colour}>
        {t('dashboards.percent', { value: completion })}
      </Typography>
    </Box>
  )
}
