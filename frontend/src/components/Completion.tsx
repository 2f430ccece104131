import Box from '@mui/material/Box'
import LinearProgress from '@mui/material/LinearProgress'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'

export type CompletionColour = 'error' | 'accent' | 'success'

/** A completion and the colour the server gave it (spec 2 §9): null when it is -1, not quantifiable. */
export interface CompletionOf {
  completion: number
  completionColour: CompletionColour | null
}

/** A completion as words: its percentage, or not quantifiable at -1 (nothing to count). */
export function useCompletionText(): (completion: number) => string {
  const { t } = useTranslation()
  return (completion) => (completion < 0 ? t('completion.notQuantifiable') : t('completion.percent', { value: completion }))
}

/** A completion (of a path, a module, a person's current paths) as a bar and a percentage in the spec's colours. */
export function Completion({ of: { completion, completionColour: colour }, label }: { of: CompletionOf; label: string }) {
  const text = useCompletionText()
  if (!colour) {
    return (
      <Typography variant="body2" color="text.secondary" data-completion="none">
        {text(completion)}
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
        {text(completion)}
      </Typography>
    </Box>
  )
}
