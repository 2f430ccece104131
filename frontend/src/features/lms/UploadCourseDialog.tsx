import UploadFile from '@mui/icons-material/UploadFile'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import LinearProgress from '@mui/material/LinearProgress'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isApiError } from '../../api/errors'
import { DIALOG_WIDTH } from '../../components/FormDialog'
import { isRunning, type Job, jobQuery } from '../../components/jobs/api'
import { useMessage } from '../../lib/messages'
import { type ImportResult, useCoursesChanged, useUploadCourse } from './api'

/** Why a package was refused: the server's message key (or that of a check made before sending), and the entries it names with why. */
interface Refusal {
  message: string
  faults: { entry: string; code: string }[]
}

/** The field of a fault of the archive as a whole (not a zip, too many entries), named in the reader's words. */
const WHOLE_PACKAGE = 'package'

/** The checks worth making before sending hundreds of megabytes for nothing; the server makes them again, and the others. */
function refusalBeforeSending(file: File, maxBytes: number | undefined): Refusal | undefined {
  // A package is a zip; a cmi5.xml alone describes a course whose units are on another site.
  if (!/\.(zip|xml)$/i.test(file.name)) return { message: 'badFileFormat', faults: [] }
  if (maxBytes !== undefined && file.size > maxBytes) return { message: 'fileTooBig', faults: [] }
  return undefined
}

/**
 * The server's answer as a refusal: 400 invalidCoursePackage names the faulty entry (or element of
 * cmi5.xml) as its field. A failure to reach the server is the error dialog's, as everywhere.
 */
function refusalOf(error: Error): Refusal | undefined {
  if (!isApiError(error)) return undefined
  if (error.status === 413) return { message: 'fileTooBig', faults: [] }
  return { message: error.message, faults: error.errors.map(({ field, code }) => ({ entry: field, code })) }
}

/** Why the job that imported a package failed: its message key (invalidCoursePackage, jobInterrupted…) and the entries it names. */
const refusalOfJob = (job: Job): Refusal => ({
  message: job.error ?? 'jobFailed',
  faults: job.errors.map(({ field, code }) => ({ entry: field, code })),
})

/**
 * Uploads a course package (a .zip, or a cmi5.xml alone): the progress while it is sent, the server's refusal in words. A package
 * the server took is imported by a job of the server (docs/operations.md, "Jobs"): the dialog follows it, then gives its course, or
 * says why it failed; closed meanwhile, the import goes on and the bell tells when it ended.
 */
export function UploadCourseDialog({
  maxBytes,
  onClose,
  onDone,
}: {
  /** The largest package the server takes (the organisation's information), once known. */
  maxBytes: number | undefined
  onClose: () => void
  onDone: (result: ImportResult) => void
}) {
  const { t, i18n } = useTranslation()
  const message = useMessage()
  const titleId = useId()
  const upload = useUploadCourse()
  const coursesChanged = useCoursesChanged()
  const [file, setFile] = useState<File | null>(null)
  const [progress, setProgress] = useState<number>()
  const [sendRefusal, setSendRefusal] = useState<Refusal>()
  const [jobId, setJobId] = useState<number>()
  // Until it is first read, the job is as the server's 202 gave it: queued.
  const job = useQuery({ ...jobQuery(jobId ?? 0), enabled: jobId !== undefined }).data
  const importing = jobId !== undefined && (job === undefined || isRunning(job))
  const refusal = jobId !== undefined && job?.status === 'failed' ? refusalOfJob(job) : sendRefusal
  const busy = upload.isPending || importing
  const succeeded = job?.status === 'succeeded' ? job : undefined

  // The job's end, once: the catalogue holds the course now, which the page shows.
  const ended = useRef<number>(undefined)
  useEffect(() => {
    if (!succeeded || ended.current === succeeded.id) return
    ended.current = succeeded.id
    void coursesChanged()
    onDone(succeeded.summary as unknown as ImportResult)
  }, [succeeded, coursesChanged, onDone])

  const choose = (chosen: File | null) => {
    setFile(chosen)
    setProgress(undefined)
    setJobId(undefined)
    setSendRefusal(chosen ? refusalBeforeSending(chosen, maxBytes) : undefined)
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!file || refusalBeforeSending(file, maxBytes)) return
    setSendRefusal(undefined)
    setJobId(undefined)
    setProgress(0)
    upload.mutate(
      { file, onProgress: setProgress },
      {
        onSuccess: (answer) => {
          setProgress(undefined)
          setJobId(answer.id)
        },
        onError: (error) => {
          setProgress(undefined)
          setSendRefusal(refusalOf(error))
        },
      },
    )
  }
  // The package's own faults have words of their own; the general codes (emptyFieldError…) those of every form.
  const reason = (code: string) => (i18n.exists(`lms.upload.reasons.${code}`) ? t(`lms.upload.reasons.${code}`) : (message(code) ?? code))

  return (
    <Dialog open onClose={upload.isPending ? undefined : onClose} maxWidth={false} aria-labelledby={titleId} slotProps={{ paper: { sx: { width: DIALOG_WIDTH, maxWidth: '100%' } } }}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{t('lms.upload.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <Typography variant="body2" color="text.secondary">
              {t('lms.upload.hint')}
              {maxBytes !== undefined && ` ${t('lms.upload.sizeLimit', { size: Math.floor(maxBytes / 1_000_000).toLocaleString(i18n.language) })}`}
            </Typography>
            <Stack direction="row" sx={{ alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
              <Button component="label" variant="outlined" startIcon={<UploadFile />} disabled={busy}>
                {t('lms.upload.chooseFile')}
                <input
                  type="file"
                  hidden
                  accept=".zip,.xml,application/zip,application/xml,text/xml"
                  aria-label={t('lms.upload.chooseFile')}
                  onChange={(event) => choose(event.target.files?.[0] ?? null)}
                />
              </Button>
              <Typography variant="body2" color={file ? 'text.primary' : 'text.secondary'} sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                {file ? t('lms.upload.file', { name: file.name }) : t('lms.upload.noFile')}
              </Typography>
            </Stack>
            {progress !== undefined && (
              <Stack spacing={0.5}>
                <LinearProgress variant="determinate" value={Math.round(progress * 100)} aria-label={t('lms.upload.sending')} />
                <Typography variant="caption" color="text.secondary">
                  {t('lms.upload.progress', { percent: Math.round(progress * 100) })}
                </Typography>
              </Stack>
            )}
            {importing && (
              <Stack spacing={0.5} role="status">
                <LinearProgress aria-label={t('lms.upload.importing')} />
                <Typography variant="caption" color="text.secondary">
                  {(job?.status ?? 'queued') === 'queued' ? t('lms.upload.queued') : t('lms.upload.importing')} {t('lms.upload.importingHint')}
                </Typography>
              </Stack>
            )}
            {refusal && (
              <Alert severity="error" role="alert">
                <Typography variant="body2">{message(refusal.message)}</Typography>
                {refusal.faults.map(({ entry, code }) => (
                  <Typography key={`${entry} ${code}`} variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                    {entry === WHOLE_PACKAGE ? t('lms.upload.packageFault', { reason: reason(code) }) : t('lms.upload.faultyEntry', { entry, reason: reason(code) })}
                  </Typography>
                ))}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={upload.isPending}>
            {t(importing ? 'actions.close' : 'actions.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={busy} disabled={!file || refusalBeforeSending(file, maxBytes) !== undefined}>
            {t('lms.upload.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  )
}
