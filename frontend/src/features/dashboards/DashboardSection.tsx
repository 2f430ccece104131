import Paper from '@mui/material/Paper'
import Typography from '@mui/material/Typography'
import { type ReactNode, useId } from 'react'

/** A titled part of a dashboard: a region named by its heading. */
export function DashboardSection({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  const headingId = useId()
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2, minWidth: 0 }}>
      <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
        {title}
      </Typography>
      {action}
      {children}
    </Paper>
  )
}

/** What a section says when it has nothing to show. */
export function EmptyText({ children }: { children: ReactNode }) {
  return (
    <Typography variant="body2" color="text.secondary">
      {children}
    </Typography>
  )
}
