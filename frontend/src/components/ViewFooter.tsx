import Box from '@mui/material/Box'
import Divider from '@mui/material/Divider'
import Stack from '@mui/material/Stack'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

interface ViewFooterProps {
  /** The way back to the list, at the start. */
  back: ReactNode
  /** What is said about the actions (why one is disabled, a refusal), just above them. */
  note?: ReactNode
  /** The page's action buttons. */
  children: ReactNode
}

/**
 * The foot of a view page, under a divider, named Actions for assistive technologies: the way back at
 * the start and the actions at the end, their note above them. On a wide screen the actions keep to one
 * line, level with the way back, as long as they fit, then wrap at the same gaps, aligned to the end;
 * on a phone each takes the full width, one under the other.
 */
export function ViewFooter({ back, note, children }: ViewFooterProps) {
  const { t } = useTranslation()
  return (
    <>
      <Divider sx={{ my: 3 }} />
      <Stack
        role="group"
        aria-label={t('common.actions')}
        direction={{ xs: 'column', sm: 'row' }}
        useFlexGap
        spacing={1.5}
        sx={{ alignItems: { xs: 'stretch', sm: 'flex-end' } }}
      >
        <Box sx={{ flexShrink: 0, alignSelf: { xs: 'flex-start', sm: 'auto' } }}>{back}</Box>
        <Stack useFlexGap spacing={1.5} sx={{ flexGrow: 1, minWidth: 0, alignItems: { xs: 'stretch', sm: 'flex-end' } }}>
          {note}
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            useFlexGap
            spacing={1.5}
            sx={{ flexWrap: 'wrap', justifyContent: 'flex-end', alignItems: { xs: 'stretch', sm: 'center' } }}
          >
            {children}
          </Stack>
        </Stack>
      </Stack>
    </>
  )
}
