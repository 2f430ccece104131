import SendOutlined from '@mui/icons-material/SendOutlined'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Link from '@mui/material/Link'
import Pagination from '@mui/material/Pagination'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { isApiError } from '../../api/errors'
import { Loading } from '../../components/Loading'
import { Notice } from '../../components/Notice'
import { PageHeader } from '../../components/PageHeader'
import { formatDateTime } from '../../lib/dates'
import { useMessage } from '../../lib/messages'
import { usePageTitle } from '../../lib/pageTitle'
import { MESSAGE_STATUSES, type MessageStatus, type OutboxCard, OUTBOX_PAGE_SIZE, outboxQuery, useSendTestMessage } from './api'
import { KindLabel, MessageStatusChip } from './OutboxLabels'
import { OutboxMessageDialog } from './OutboxMessageDialog'

/** The status asked for in the address (?status=failed), none for all. */
const statusOf = (search: URLSearchParams): MessageStatus | undefined => MESSAGE_STATUSES.find((status) => status === search.get('status'))

/** The page asked for in the address (?page=2), the first otherwise. */
function pageOf(search: URLSearchParams): number {
  const page = Number(search.get('page'))
  return Number.isInteger(page) && page > 1 ? page : 1
}

/**
 * The e-mails Spot sends, newest first, by status: what waits, what left and what failed and why,
 * each opened as it left; and a test message to oneself. The status and the page are kept in the
 * address (?status=failed&page=2).
 */
export function OutboxPage() {
  const { t } = useTranslation()
  usePageTitle(t('outbox.title'))
  const message = useMessage()
  const [search, setSearch] = useSearchParams()
  const status = statusOf(search)
  const page = pageOf(search)
  const { data: outbox, isError } = useQuery(outboxQuery(status, page))
  const sendTest = useSendTestMessage()
  const [opened, setOpened] = useState<number>()
  const [notice, setNotice] = useState<string>()
  const [refusal, setRefusal] = useState<string>()

  const show = (next: MessageStatus | undefined, nextPage = 1) => {
    const query = new URLSearchParams()
    if (next) query.set('status', next)
    if (nextPage > 1) query.set('page', String(nextPage))
    setSearch(query, { replace: true })
  }

  const sendTestMessage = () => {
    setRefusal(undefined)
    sendTest.mutate(undefined, {
      // Without a mail server it waits here, which the page already says.
      onSuccess: (sent) => setNotice(t(outbox?.sendingEnabled === false ? 'outbox.testWaiting' : 'outbox.testQueued', { address: sent.toAddress })),
      onError: (error) => {
        if (isApiError(error, 400)) setRefusal(message(error.message))
      },
    })
  }

  const all = outbox ? Object.values(outbox.counts).reduce((sum, count) => sum + count, 0) : 0
  const filters: { value: MessageStatus | undefined; label: string; count: number }[] = [
    { value: undefined, label: t('outbox.all'), count: all },
    ...MESSAGE_STATUSES.map((value) => ({ value, label: t(`outbox.statuses.${value}`), count: outbox?.counts[value] ?? 0 })),
  ]
  const pages = outbox ? Math.ceil(outbox.total / OUTBOX_PAGE_SIZE) : 0

  return (
    <>
      <PageHeader
        title={t('outbox.title')}
        actions={
          <Button variant="contained" startIcon={<SendOutlined />} loading={sendTest.isPending} loadingPosition="start" onClick={sendTestMessage}>
            {t('outbox.sendTest')}
          </Button>
        }
      />
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 800 }}>
          {t('outbox.hint')}
        </Typography>
        {outbox?.sendingEnabled === false && (
          <Alert severity="warning" role="status">
            {t('outbox.notSending')}
          </Alert>
        )}
        {refusal && (
          <Alert severity="error" role="alert" onClose={() => setRefusal(undefined)}>
            {refusal}
          </Alert>
        )}
        <Stack direction="row" role="group" aria-label={t('outbox.filter')} sx={{ gap: 1, flexWrap: 'wrap' }}>
          {filters.map(({ value, label, count }) => {
            const selected = value === status
            return (
              <Chip
                key={value ?? 'all'}
                label={
                  <>
                    {label}{' '}
                    <Box component="span" sx={{ fontWeight: 600 }}>
                      {count}
                    </Box>
                  </>
                }
                color={selected ? 'primary' : 'default'}
                variant={selected ? 'filled' : 'outlined'}
                aria-pressed={selected}
                onClick={() => show(value)}
              />
            )
          })}
        </Stack>
        {outbox ? <MessagesTable messages={outbox.messages} onOpen={setOpened} /> : !isError && <Loading />}
        {pages > 1 && (
          <Pagination
            count={pages}
            page={page}
            onChange={(_event, next) => show(status, next)}
            siblingCount={0}
            sx={{ alignSelf: 'center' }}
          />
        )}
      </Stack>
      {opened !== undefined && <OutboxMessageDialog messageId={opened} onClose={() => setOpened(undefined)} />}
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </>
  )
}

// On a phone the date, kind, address and attempts give way: the subject says to whom and when beneath it, the status stays.
const WIDE_ONLY = { display: { xs: 'none', sm: 'table-cell' } }

/** The messages of a page. A message opens from its subject, or anywhere on its row. */
function MessagesTable({ messages, onOpen }: { messages: OutboxCard[]; onOpen: (messageId: number) => void }) {
  const { t, i18n } = useTranslation()
  const moment = (value: string) => <time dateTime={value}>{formatDateTime(value, i18n.language)}</time>
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={t('outbox.table')} sx={{ minWidth: { xs: 0, sm: 860 } }}>
        <TableHead>
          <TableRow>
            <TableCell sx={WIDE_ONLY}>{t('outbox.date')}</TableCell>
            <TableCell sx={WIDE_ONLY}>{t('outbox.kind')}</TableCell>
            <TableCell sx={WIDE_ONLY}>{t('outbox.to')}</TableCell>
            <TableCell>{t('outbox.subject')}</TableCell>
            <TableCell>{t('outbox.status')}</TableCell>
            <TableCell align="right" sx={WIDE_ONLY}>
              {t('outbox.attempts')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {messages.map((card) => (
            <TableRow key={card.id} hover onClick={() => onOpen(card.id)} sx={{ cursor: 'pointer', verticalAlign: 'top' }}>
              <TableCell sx={{ ...WIDE_ONLY, whiteSpace: 'nowrap' }}>{moment(card.createdAt)}</TableCell>
              <TableCell sx={WIDE_ONLY}>
                <KindLabel kind={card.kind} />
              </TableCell>
              <TableCell sx={{ ...WIDE_ONLY, overflowWrap: 'anywhere' }}>{card.toAddress}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>
                <Link
                  component="button"
                  type="button"
                  underline="hover"
                  onClick={(event) => {
                    // The row opens it too: once is enough.
                    event.stopPropagation()
                    onOpen(card.id)
                  }}
                  sx={{ textAlign: 'start', fontWeight: 500 }}
                >
                  {card.subject}
                </Link>
                <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                  {card.toAddress} · {moment(card.createdAt)}
                </Typography>
                {card.lastError && card.status !== 'sent' && (
                  <Typography variant="body2" sx={{ color: card.status === 'failed' ? 'error.text' : 'text.secondary' }}>
                    {card.lastError}
                  </Typography>
                )}
              </TableCell>
              <TableCell>
                <MessageStatusChip status={card.status} />
                {card.status === 'queued' && card.attempts > 0 && (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                    {t('outbox.nextAttempt')} {moment(card.nextAttemptAt)}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="right" sx={WIDE_ONLY}>
                {card.attempts}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {messages.length === 0 && (
        <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
          {t('outbox.empty')}
        </Typography>
      )}
    </TableContainer>
  )
}
