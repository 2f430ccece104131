import Chip, { type ChipProps } from '@mui/material/Chip'
import { useTranslation } from 'react-i18next'
import type { MessageStatus } from './api'

const STATUS_COLOURS: Record<MessageStatus, ChipProps['color']> = {
  queued: 'default',
  held: 'secondary',
  sending: 'info',
  sent: 'success',
  digested: 'success',
  failed: 'error',
}

/** Where a message stands: queued, kept for the person's daily digest, being sent, sent, gathered in a digest, failed. */
export function MessageStatusChip({ status }: { status: MessageStatus }) {
  const { t } = useTranslation()
  return <Chip size="small" variant="outlined" color={STATUS_COLOURS[status]} label={t(`outbox.statuses.${status}`)} />
}

/** What a message is about, named when the client knows its kind, as the server says it otherwise (a kind newer than the client). */
export function KindLabel({ kind }: { kind: string }) {
  const { t, i18n } = useTranslation()
  const key = `outbox.kinds.${kind}`
  return <>{i18n.exists(key) ? t(key) : kind}</>
}
