import Refresh from '@mui/icons-material/Refresh'
import Chip from '@mui/material/Chip'
import IconButton from '@mui/material/IconButton'
import Stack from '@mui/material/Stack'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Loading } from '../../components/Loading'
import { formatDateTime } from '../../lib/dates'
import { type MyAttempt, myAttemptsQuery } from './api'
import { formatGrade } from './grades'
import { Section } from '../../components/Section'

/** The signed-in learner's quiz attempts, newest first; read again when the tab regains focus (the quiz runs in another tab). */
export function MyAttempts() {
  const { t } = useTranslation()
  const { data: attempts, refetch, isFetching } = useQuery(myAttemptsQuery)
  return (
    <Section
      title={t('lms.attempts.title')}
      action={
        <Tooltip title={t('lms.attempts.reload')}>
          <span>
            <IconButton aria-label={t('lms.attempts.reload')} onClick={() => void refetch()} disabled={isFetching}>
              <Refresh />
            </IconButton>
          </span>
        </Tooltip>
      }
    >
      {!attempts ? (
        <Loading />
      ) : attempts.length === 0 ? (
        <Typography color="text.secondary">{t('lms.attempts.empty')}</Typography>
      ) : (
        <Stack component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {[...attempts].sort((a, b) => b.date.localeCompare(a.date)).map((attempt) => (
            <AttemptRow key={attempt.id} attempt={attempt} />
          ))}
        </Stack>
      )}
    </Section>
  )
}

function AttemptRow({ attempt }: { attempt: MyAttempt }) {
  const { t, i18n } = useTranslation()
  return (
    <Stack component="li" direction="row" sx={{ py: 1.25, gap: 1.5, alignItems: 'center', flexWrap: 'wrap', '&:not(:last-of-type)': { borderBottom: 1, borderColor: 'divider' } }}
    >
      <Stack sx={{ flex: '1 1 14rem', minWidth: 0 }}>
        <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{attempt.quizName}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {t('lms.attempts.summary', { course: attempt.courseTitle, date: formatDateTime(attempt.date, i18n.language) })}
        </Typography>
      </Stack>
      <Stack direction="row" sx={{ gap: 1.5, alignItems: 'center' }}>
        <Typography sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
          {t('lms.attempts.grade', { grade: formatGrade(attempt.grade, i18n.language) })}
        </Typography>
        <Chip
          size="small"
          variant="outlined"
          color={attempt.success ? 'success' : 'error'}
          label={attempt.success ? t('lms.attempts.passed') : t('lms.attempts.failed')}
        />
      </Stack>
    </Stack>
  )
}
