import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import Stack from '@mui/material/Stack'
import { useTheme } from '@mui/material/styles'
import Typography from '@mui/material/Typography'
import useMediaQuery from '@mui/material/useMediaQuery'
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { isApiError } from '../../api/errors'
import { Loading } from '../../components/Loading'
import { formatDateTime } from '../../lib/dates'
import { useMessage } from '../../lib/messages'
import { type OutboxMessage, outboxMessageQuery } from './api'
import { KindLabel, MessageStatusChip } from './OutboxLabels'

const PRE_WRAPPED = { m: 0, p: 1.5, bgcolor: 'grey.50', border: 1, borderColor: 'divider', borderRadius: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const

/** One message as it left: who to, where it stands, its plain text, its HTML (drawn in a sandbox, where no script runs and no link leaves) and its invitation. */
export function OutboxMessageDialog({ messageId, onClose }: { messageId: number; onClose: () => void }) {
  const { t } = useTranslation()
  const message = useMessage()
  const theme = useTheme()
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'))
  const { data: shown, error } = useQuery(outboxMessageQuery(messageId))
  let content: ReactNode = <Loading />
  if (shown) content = <MessageContent message={shown} />
  else if (isApiError(error, 404)) content = <Alert severity="error">{message(error.message)}</Alert>
  else if (error) content = null // the error dialog says it
  return (
    <Dialog open onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="md">
      <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{shown?.subject ?? t('outbox.message')}</DialogTitle>
      <DialogContent dividers>{content}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.close')}</Button>
      </DialogActions>
    </Dialog>
  )
}

function MessageContent({ message }: { message: OutboxMessage }) {
  const { t, i18n } = useTranslation()
  const moment = (value: string) => <time dateTime={value}>{formatDateTime(value, i18n.language)}</time>
  const languageKey = `language.names.${message.language}`
  const details: [string, ReactNode][] = [
    [t('outbox.to'), message.toAddress],
    [t('outbox.status'), <MessageStatusChip key="status" status={message.status} />],
    [t('outbox.kind'), <KindLabel key="kind" kind={message.kind} />],
    [t('outbox.language'), i18n.exists(languageKey) ? t(languageKey) : message.language],
    [t('outbox.date'), moment(message.createdAt)],
  ]
  if (message.sentAt) details.push([t('outbox.sentAt'), moment(message.sentAt)])
  else if (message.status === 'queued') details.push([t('outbox.nextAttempt'), moment(message.nextAttemptAt)])
  details.push([t('outbox.attempts'), message.attempts])
  if (message.lastError) details.push([t('outbox.error'), message.lastError])

  return (
    <Stack spacing={3}>
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: 2, rowGap: 1, alignItems: 'center', m: 0 }}>
        {details.map(([term, value]) => (
          <Box key={term} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {term}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      <Part title={t('outbox.textPart')}>
        <Typography component="pre" variant="body2" sx={PRE_WRAPPED}>
          {message.textBody}
        </Typography>
      </Part>
      <Part title={t('outbox.htmlPart')}>
        <Box
          component="iframe"
          // No script, no form, no navigation, no access to Spot: the HTML is drawn, nothing more.
          sandbox=""
          srcDoc={message.htmlBody}
          title={t('outbox.htmlFrame', { subject: message.subject })}
          sx={{ display: 'block', width: '100%', height: '60vh', minHeight: 320, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'common.white' }}
        />
      </Part>
      {message.calendar && (
        <Part title={t('outbox.calendarPart')}>
          <Typography component="pre" variant="body2" sx={{ ...PRE_WRAPPED, fontFamily: 'monospace', fontSize: '0.8rem' }}>
            {message.calendar}
          </Typography>
        </Part>
      )}
    </Stack>
  )
}

/** A part of the message, under its heading. */
function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  )
}
