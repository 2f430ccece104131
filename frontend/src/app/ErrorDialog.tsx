import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Collapse from '@mui/material/Collapse'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import Typography from '@mui/material/Typography'
import { useState, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { errorReports } from '../api/errorReports'
import { ApiError } from '../api/errors'
import { useMessage } from '../lib/messages'

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <Box component="div" sx={{ display: 'flex', gap: 1 }}>
      <Typography variant="body2" component="span" sx={{ fontWeight: 600, minWidth: 90 }}>
        {label}
      </Typography>
      <Typography variant="body2" component="span" sx={{ fontFamily: 'monospace', wordBreak: 'break-word' }}>
        {value}
      </Typography>
    </Box>
  )
}

function ErrorReport({ error, onClose }: { error: Error; onClose: () => void }) {
  const { t } = useTranslation()
  const message = useMessage()
  const [detailed, setDetailed] = useState(false)
  const fromServer = error instanceof ApiError
  const summary = fromServer && error.status >= 500 ? t('errorDialog.serverSide') : t('errorDialog.notCompleted')
  return (
    <Dialog open onClose={onClose} maxWidth={false} slotProps={{ paper: { sx: { width: 560, maxWidth: '100%' } } }}>
      <DialogTitle>{t('errorDialog.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{summary}</DialogContentText>
        <Alert severity="error" sx={{ mb: 2 }}>
          {fromServer ? (
            <>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {t('errorDialog.statusLine', { status: error.status, reason: error.reason })}
              </Typography>
              <Typography variant="body2">{message(error.message)}</Typography>
            </>
          ) : (
            <Typography variant="body2">{t('errorDialog.clientError', { name: error.name, message: error.message })}</Typography>
          )}
        </Alert>
        {fromServer && error.errors.length > 0 && (
          <Box component="ul" sx={{ m: 0, mb: 2, pl: 3 }} aria-label={t('errorDialog.fieldErrors')}>
            {error.errors.map((fieldError) => (
              <li key={`${fieldError.field}:${fieldError.code}`}>
                <Typography variant="body2">
                  {t('errorDialog.fieldError', { field: fieldError.field, message: message(fieldError.code) })}
                </Typography>
              </li>
            ))}
          </Box>
        )}
        <Collapse in={detailed} unmountOnExit>
          <Box sx={{ bgcolor: 'grey.100', borderRadius: 1, p: 1.5, mb: 2 }}>
            <Detail label={t('errorDialog.name')} value={error.name} />
            {fromServer && (
              <>
                <Detail label={t('errorDialog.status')} value={String(error.status)} />
                <Detail label={t('errorDialog.reason')} value={error.reason} />
                {error.call && <Detail label={t('errorDialog.call')} value={`${error.call.method} ${error.call.path}`} />}
              </>
            )}
            <Detail label={t('errorDialog.message')} value={error.message} />
            {fromServer &&
              error.errors.map((fieldError) => (
                <Detail
                  key={`${fieldError.field}:${fieldError.code}`}
                  label={t('errorDialog.field')}
                  value={`${fieldError.field}: ${fieldError.code}`}
                />
              ))}
          </Box>
        </Collapse>
        <Typography variant="body2" color="text.secondary">
          {t('errorDialog.contactAdministrator')}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setDetailed(!detailed)} aria-expanded={detailed}>
          {detailed ? t('errorDialog.lessDetails') : t('errorDialog.moreDetails')}
        </Button>
        <Button variant="contained" onClick={onClose} autoFocus>
          {t('actions.close')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}

/** Shows, one after the other, the failed server calls that no screen presented itself. */
export function ErrorDialog() {
  const reports = useSyncExternalStore(errorReports.subscribe, errorReports.current)
  const report = reports[0]
  if (!report) return null
  return <ErrorReport key={report.id} error={report.error} onClose={errorReports.dismiss} />
}
