import ContentCopy from '@mui/icons-material/ContentCopy'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import type { FormEvent, ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { StaleVersionNotice } from './StaleVersionNotice'

interface FormFrameProps {
  /** The form's name for assistive technologies: the page's title. */
  title: string
  maxWidth: number
  onSubmit: (event: FormEvent<HTMLFormElement>) => void
  onCancel: () => void
  /** A save is under way: the Save button spins. */
  saving: boolean
  /** What a copy is made from ("Copy of …"), above the fields. */
  source?: string
  /** A field is in error: the form says so under the fields. */
  hasErrors: boolean
  /** The server's refusal that no field shows. */
  refused?: string
  /** The save answered 409 staleVersion (`StaleVersionNotice`); absent while it did not. */
  stale?: { message: string; readAgainLabel: string; onReadAgain: () => void }
  /** The fields. */
  children: ReactNode
}

/**
 * The frame of an item's form page: the fields, then what went wrong on the last save (a field in
 * error, the server's refusal, someone saving the item meanwhile), then Cancel and Save.
 */
export function FormFrame({ title, maxWidth, onSubmit, onCancel, saving, source, hasErrors, refused, stale, children }: FormFrameProps) {
  const { t } = useTranslation()
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, maxWidth }}>
      <form onSubmit={onSubmit} noValidate aria-label={title}>
        {source && (
          <Alert icon={<ContentCopy fontSize="inherit" />} severity="info" sx={{ mb: 3 }}>
            {source}
          </Alert>
        )}
        <Stack spacing={1}>
          {children}
          {hasErrors && <Alert severity="error">{t('codes.atLeastOneErrorLeft')}</Alert>}
          {refused && <Alert severity="error">{refused}</Alert>}
          {stale && <StaleVersionNotice {...stale} />}
        </Stack>
        <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end', mt: 3 }}>
          <Button onClick={onCancel}>{t('actions.cancel')}</Button>
          <Button type="submit" variant="contained" loading={saving}>
            {t('actions.save')}
          </Button>
        </Stack>
      </form>
    </Paper>
  )
}
