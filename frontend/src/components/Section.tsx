import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import type { SxProps, Theme } from '@mui/material/styles'
import Typography from '@mui/material/Typography'
import type { ReactNode } from 'react'

interface SectionProps {
  title: string
  children: ReactNode
  /** Beside the title, at the end of its line (a button, a link). */
  action?: ReactNode
  /** What a page adds to or changes of the block's frame (its padding on phones, its height in a grid). */
  sx?: SxProps<Theme>
}

/** A titled block of a page, named for assistive technologies by its title. */
export function Section({ title, children, action, sx }: SectionProps) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={title}
      sx={[{ px: { xs: 2, sm: 2.5 }, py: 2, minWidth: 0 }, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1, gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
        {action}
      </Stack>
      {children}
    </Paper>
  )
}
