import UploadFile from '@mui/icons-material/UploadFile'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Checkbox from '@mui/material/Checkbox'
import Chip from '@mui/material/Chip'
import FormControlLabel from '@mui/material/FormControlLabel'
import LinearProgress from '@mui/material/LinearProgress'
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
import { isApiError } from '../../api/errors'
import { isRunning, jobQuery } from '../../components/jobs/api'
import { useMessage } from '../../lib/messages'
import { type ImportReport, type ImportRow, useImportPeople } from './api'

// The rows the table shows: every refused one, then the first others (a file may hold 20,000 people).
const SHOWN_OTHERS = 100
const OUTCOME_COLOURS = { created: 'success', updated: 'info', unchanged: 'default', deactivated: 'warning', refused: 'error' } as const

interface Refusal {
  message: string
  column?: string
}

function refusalOf(error: Error): Refusal {
  if (!isApiError(error)) return { message: 'unexpectedServerError' }
  if (error.status === 413) return { message: 'fileTooBig' }
  return { message: error.message, column: error.errors[0]?.field }
}

/**
 * Import people and their groups from a CSV or XLSX file: a dry run first, its rows in a table, then apply,
 * which is a job of the server: its report comes when the job ends.
 */
export function ImportTab() {
  const { t } = useTranslation()
  const message = useMessage()
  const importPeople = useImportPeople()
  const [file, setFile] = useState<File | null>(null)
  const [deactivateMissing, setDeactivateMissing] = useState(false)
  const [progress, setProgress] = useState<number>()
  const [preview, setPreview] = useState<ImportReport>()
  const [sendRefusal, setSendRefusal] = useState<Refusal>()
  const [jobId, setJobId] = useState<number>()
  const job = useQuery({ ...jobQuery(jobId ?? 0), enabled: jobId !== undefined }).data
  const applying = jobId !== undefined && (job === undefined || isRunning(job))
  const applied = job?.status === 'succeeded' ? (job.summary?.report as ImportReport | undefined) : undefined
  const report = jobId !== undefined ? applied : preview
  const refusal = jobId !== undefined && job?.status === 'failed' ? { message: job.error ?? 'jobFailed', column: job.errors[0]?.field } : sendRefusal

  const send = (chosen: File, dryRun: boolean, missing: boolean) => {
    setSendRefusal(undefined)
    setJobId(undefined)
    setProgress(0)
    importPeople.mutate(
      { file: chosen, dryRun, deactivateMissing: missing, onProgress: setProgress },
      {
        onSuccess: (answer) => {
          setProgress(undefined)
          // A dry run answers its report; applying, the job that applies the file.
          if ('kind' in answer) setJobId(answer.id)
          else setPreview(answer)
        },
        onError: (error) => {
          setProgress(undefined)
          setPreview(undefined)
          setSendRefusal(refusalOf(error))
        },
      },
    )
  }
  const choose = (chosen: File | null) => {
    setFile(chosen)
    setPreview(undefined)
    if (chosen) send(chosen, true, deactivateMissing)
  }
  const toggleMissing = (checked: boolean) => {
    setDeactivateMissing(checked)
    if (file) send(file, true, checked)
  }

  const refused = report?.rows.filter((row) => row.outcome === 'refused') ?? []
  const others = report?.rows.filter((row) => row.outcome !== 'refused') ?? []
  const shown = [...refused, ...others.slice(0, SHOWN_OTHERS)]
  const changes = report ? report.created + report.updated + report.deactivated : 0
  // An applied report lists the first rows only (the job keeps every refused row and the first 100 others).
  const othersCount = report ? report.created + report.updated + report.unchanged + report.deactivated : 0
  const errorText = (row: ImportRow) =>
    row.errors.map((error) => t('users.import.error', { column: error.column, reason: message(error.code) })).join(' · ')

  return (
    <Stack spacing={2.5} sx={{ maxWidth: 1100 }}>
      <Typography variant="body2" color="text.secondary">
        {t('users.import.hint')}
      </Typography>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <Button component="label" variant="outlined" startIcon={<UploadFile />} disabled={importPeople.isPending}>
          {t('users.import.chooseFile')}
          <input
            type="file"
            hidden
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            aria-label={t('users.import.chooseFile')}
            onChange={(event) => {
              choose(event.target.files?.[0] ?? null)
              event.target.value = ''
            }}
          />
        </Button>
        <Typography variant="body2" color={file ? 'text.primary' : 'text.secondary'} sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
          {file ? file.name : t('users.import.noFile')}
        </Typography>
      </Stack>
      <FormControlLabel
        control={<Checkbox checked={deactivateMissing} disabled={importPeople.isPending} onChange={(event) => toggleMissing(event.target.checked)} />}
        label={t('users.import.deactivateMissing')}
      />
      {progress !== undefined && (
        <Stack spacing={0.5}>
          <LinearProgress variant="determinate" value={Math.round(progress * 100)} aria-label={t('users.import.sending')} />
          <Typography variant="caption" color="text.secondary">
            {t('users.import.progress', { percent: Math.round(progress * 100) })}
          </Typography>
        </Stack>
      )}
      {applying && (
        <Stack spacing={0.5} role="status">
          <LinearProgress aria-label={t('users.import.applying')} />
          <Typography variant="caption" color="text.secondary">
            {t('users.import.applying')}
          </Typography>
        </Stack>
      )}
      {refusal && (
        <Alert severity="error" role="alert">
          {refusal.column && refusal.column !== 'file'
            ? t('users.import.error', { column: refusal.column, reason: message(refusal.message) })
            : message(refusal.message)}
        </Alert>
      )}
      {report && (
        <>
          <Alert severity={report.refused > 0 ? 'error' : report.applied ? 'success' : 'info'} role="status">
            {report.applied ? t('users.import.applied') : report.refused > 0 ? t('users.import.fixFirst') : t('users.import.preview')}{' '}
            {t('users.import.counts', report)}
          </Alert>
          {!report.applied && report.refused === 0 && changes > 0 && file && (
            <Box>
              <Button variant="contained" loading={importPeople.isPending || applying} onClick={() => send(file, false, deactivateMissing)}>
                {t('users.import.apply')}
              </Button>
            </Box>
          )}
          <TableContainer>
            <Table size="small" aria-label={t('users.import.rows')} sx={{ minWidth: 640 }}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('users.import.line')}</TableCell>
                  <TableCell>{t('users.login')}</TableCell>
                  <TableCell>{t('users.name')}</TableCell>
                  <TableCell>{t('users.import.outcome')}</TableCell>
                  <TableCell>{t('users.import.errors')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {shown.map((row) => (
                  <TableRow key={`${row.line ?? 'missing'} ${row.login}`} data-outcome={row.outcome}>
                    <TableCell>{row.line ?? t('users.import.missing')}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{row.login}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{row.name}</TableCell>
                    <TableCell>
                      <Chip size="small" variant="outlined" color={OUTCOME_COLOURS[row.outcome]} label={t(`users.import.outcomes.${row.outcome}`)} />
                    </TableCell>
                    <TableCell>{errorText(row)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {othersCount > SHOWN_OTHERS && (
            <Typography variant="body2" color="text.secondary">
              {t('users.import.moreRows', { count: othersCount - SHOWN_OTHERS })}
            </Typography>
          )}
        </>
      )}
    </Stack>
  )
}
