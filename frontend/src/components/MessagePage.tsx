import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { ReactNode } from 'react'

/** A page that only says something: an icon, a message and the ways out. */
export function MessagePage({ icon, title, detail, actions }: { icon: ReactNode; title: string; detail?: string; actions?: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ maxWidth: 640, mx: 'auto', mt: { xs: 2, md: 8 }, p: { xs: 3, md: 5 }, textAlign: 'center' }}>
      <Stack spacing={2} sx={{ alignItems: 'center' }}>
        {icon}
        <Typography variant="h6" component="h1">
          {title}
        </Typography>
        {detail && <Typography color="text.secondary">{detail}</Typography>}
        {actions && (
          <Stack direction="row" spacing={2} sx={{ pt: 1 }}>
            {actions}
          </Stack>
        )}
      </Stack>
    </Paper>
  )
}
