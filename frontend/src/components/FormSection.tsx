import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { ReactNode } from 'react'

/** A group of a form's fields under its legend (a fieldset), with an optional sentence of help: the mediation and training path forms. */
export function FormSection({ title, help, children }: { title: string; help?: string; children: ReactNode }) {
  return (
    <Stack component="fieldset" spacing={1} sx={{ border: 0, m: 0, p: 0, pt: 1, minWidth: 0 }}>
      <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, p: 0 }}>
        {title}
      </Typography>
      {help && (
        <Typography variant="body2" color="text.secondary" sx={{ pb: 1 }}>
          {help}
        </Typography>
      )}
      {children}
    </Stack>
  )
}
