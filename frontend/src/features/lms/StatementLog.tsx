import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import MenuItem from '@mui/material/MenuItem'
import Pagination from '@mui/material/Pagination'
import Stack from '@mui/material/Stack'
import { useTheme } from '@mui/material/styles'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import useMediaQuery from '@mui/material/useMediaQuery'
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { Loading } from '../../components/Loading'
import { formatDateTime } from '../../lib/dates'

export type StatementRow = components['schemas']['StatementRow']

/** The statements recorded in a unit, for one learner or all, a page at a time (newest first). */
export const statementLogQuery = (itemId: number, learnerId: number | null, page: number) =>
  queryOptions({
    queryKey: queryKeys.lms.statements(itemId, learnerId, page),
    queryFn: () =>
      data(api.GET('/backend/api/v2/lms/statements', { params: { query: { itemId, page, ...(learnerId !== null ? { learnerId } : {}) } } })),
  })

/** The learners who have statements in a unit. */
export const statementLearnersQuery = (itemId: number) =>
  queryOptions({
    queryKey: queryKeys.lms.statementLearners(itemId),
    queryFn: () => data(api.GET('/backend/api/v2/lms/items/{itemId}/learners', { params: { path: { itemId } } })),
  })

/** The verbs whose names the log translates; another verb shows the last word of its IRI. */
const KNOWN_VERBS = ['launched', 'initialized', 'completed', 'passed', 'failed', 'terminated', 'abandoned', 'waived', 'satisfied'] as const

/**
 * The button opening a unit's statement log, shown where the course's `can.readStatements` allows it:
 * what the unit recorded for each learner, to see why a unit counts as done or not.
 */
export function StatementLogButton({ unit }: { unit: { id: number; name: string } }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  return (
    <>
      <Box>
        <Button variant="outlined" startIcon={<ReceiptLongOutlined />} onClick={() => setOpen(true)} aria-label={t('lms.statements.openName', { name: unit.name })}>
          {t('lms.statements.open')}
        </Button>
      </Box>
      {open && <StatementLogDialog unit={unit} onClose={() => setOpen(false)} />}
    </>
  )
}

/** A unit's statements: a learner picker, then the statements, a page of 50 at a time. */
export function StatementLogDialog({ unit, onClose }: { unit: { id: number; name: string }; onClose: () => void }) {
  const { t } = useTranslation()
  const theme = useTheme()
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'))
  const [learnerId, setLearnerId] = useState<number | null>(null)
  const [page, setPage] = useState(1)
  const titleId = useId()
  const { data: learners } = useQuery(statementLearnersQuery(unit.id))
  const { data: log, isPending } = useQuery({ ...statementLogQuery(unit.id, learnerId, page), placeholderData: keepPreviousData })
  const pages = log ? Math.max(1, Math.ceil(log.total / log.pageSize)) : 1
  return (
    <Dialog open onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="md" aria-labelledby={titleId}>
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        {t('lms.statements.title', { name: unit.name })}
      </DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <TextField
            select
            label={t('lms.statements.learner')}
            value={learnerId === null ? '' : String(learnerId)}
            onChange={(event) => {
              setLearnerId(event.target.value === '' ? null : Number(event.target.value))
              setPage(1)
            }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            sx={{ maxWidth: 360 }}
          >
            <MenuItem value="">{t('lms.statements.everyone')}</MenuItem>
            {(learners ?? []).map((learner) => (
              <MenuItem key={learner.id} value={String(learner.id)}>
                {learner.name}
              </MenuItem>
            ))}
          </TextField>
          {isPending && <Loading />}
          {log && (
            <>
              <Typography variant="body2" color="text.secondary" aria-live="polite">
                {t('lms.statements.count', { count: log.total })}
              </Typography>
              <Stack component="ol" spacing={1} sx={{ listStyle: 'none', m: 0, p: 0 }}>
                {log.items.map((row) => (
                  <StatementItem key={row.id} row={row} showLearner={learnerId === null} />
                ))}
              </Stack>
              {pages > 1 && (
                <Pagination
                  count={pages}
                  page={page}
                  onChange={(_, value) => setPage(value)}
                  getItemAriaLabel={(type, value) => t(`lms.statements.page.${type}`, { page: value })}
                />
              )}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.close')}</Button>
      </DialogActions>
    </Dialog>
  )
}

function StatementItem({ row, showLearner }: { row: StatementRow; showLearner: boolean }) {
  const { t, i18n } = useTranslation()
  const verb = (KNOWN_VERBS as readonly string[]).includes(row.verbName) ? t(`lms.statements.verbs.${row.verbName}`) : row.verbName
  const facts: string[] = []
  if (row.success !== null) facts.push(t(row.success ? 'lms.statements.success' : 'lms.statements.failure'))
  if (row.completion) facts.push(t('lms.statements.completion'))
  if (row.scaled !== null) facts.push(t('lms.statements.score', { score: new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 }).format(row.scaled) }))
  if (row.duration) facts.push(t('lms.statements.duration', { duration: row.duration }))
  if (row.launchMode && row.launchMode !== 'Normal') facts.push(t(`lms.statements.modes.${row.launchMode}`, { defaultValue: row.launchMode }))
  return (
    <Box component="li" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, minWidth: 0 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0.5, sm: 2 }} sx={{ alignItems: { sm: 'baseline' } }}>
        <Typography variant="body2" color="text.secondary" sx={{ flexShrink: 0 }}>
          <time dateTime={row.stored}>{formatDateTime(row.stored, i18n.language)}</time>
        </Typography>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {verb}
        </Typography>
        {showLearner && <Typography variant="body2">{row.learnerName}</Typography>}
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {facts.join(' · ')}
        </Typography>
      </Stack>
      {!row.defined && (
        <Typography variant="caption" color="text.secondary">
          {t('lms.statements.allowed')}
        </Typography>
      )}
      <Box component="details" sx={{ mt: 0.5 }}>
        <Typography component="summary" variant="caption" sx={{ cursor: 'pointer' }}>
          {t('lms.statements.asSent')}
        </Typography>
        <Typography
          component="pre"
          variant="caption"
          sx={{ m: 0, mt: 1, p: 1, bgcolor: 'grey.50', border: 1, borderColor: 'divider', borderRadius: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'monospace' }}
        >
          {JSON.stringify(row.statement, null, 2)}
        </Typography>
      </Box>
    </Box>
  )
}
