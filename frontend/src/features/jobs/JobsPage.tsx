import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import LinearProgress from '@mui/material/LinearProgress'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { downloadResult, isRunning, type Job, jobsQuery, percentDone } from '../../components/jobs/api'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Section } from '../../components/Section'
import { formatDateTime } from '../../lib/dates'
import { useMessage } from '../../lib/messages'
import { usePageTitle } from '../../lib/pageTitle'

/**
 * The signed-in person's jobs (a zip of reports…): each with its progress while it runs, its download
 * once ready, or why it failed; kept until they expire (the server's SPOT_JOB_RESULT_HOURS).
 */
export function JobsPage() {
  const { t } = useTranslation()
  const title = t('jobs.title')
  usePageTitle(title)
  const { data, isError } = useQuery(jobsQuery)
  return (
    <>
      <PageHeader title={title} />
      {data ? (
        <Section title={t('jobs.listTitle')}>
          {data.results.length === 0 ? (
            <Typography color="text.secondary">{t('jobs.empty')}</Typography>
          ) : (
            <Stack component="ul" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
              {data.results.map((job) => (
                <JobItem key={job.id} job={job} />
              ))}
            </Stack>
          )}
        </Section>
      ) : (
        !isError && <Loading />
      )}
    </>
  )
}

function JobItem({ job }: { job: Job }) {
  const { t, i18n } = useTranslation()
  const message = useMessage()
  const fetchResult = useMutation({ mutationFn: downloadResult })
  const name = t(`jobs.kinds.${job.kind}`, { defaultValue: job.kind })
  const percent = percentDone(job)
  return (
    <Stack component="li" spacing={0.75} aria-label={name}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h3">
          {name}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('jobs.askedAt', { date: formatDateTime(job.createdAt, i18n.language) })}
        </Typography>
      </Stack>
      {isRunning(job) && (
        <>
          <Typography variant="body2">
            {job.total > 0 ? t('jobs.progress', { done: job.done, total: job.total }) : t(`jobs.status.${job.status}`)}
          </Typography>
          <LinearProgress
            variant={percent === undefined ? 'indeterminate' : 'determinate'}
            value={percent}
            aria-label={t('jobs.progressLabel', { name })}
          />
        </>
      )}
      {job.status === 'succeeded' && (
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          {job.can.download && (
            <Button variant="outlined" size="small" startIcon={<FileDownloadOutlined />} onClick={() => fetchResult.mutate(job)} loading={fetchResult.isPending}>
              {t('jobs.download', { name: job.downloadName })}
            </Button>
          )}
          {job.expiresAt && (
            <Typography variant="body2" color="text.secondary">
              {t('jobs.keptUntil', { date: formatDateTime(job.expiresAt, i18n.language) })}
            </Typography>
          )}
        </Stack>
      )}
      {job.status === 'failed' && <Alert severity="warning">{message(job.error ?? 'jobFailed')}</Alert>}
    </Stack>
  )
}
