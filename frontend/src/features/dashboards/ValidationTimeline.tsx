import HistoryIcon from '@mui/icons-material/History'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Link from '@mui/material/Link'
import Typography from '@mui/material/Typography'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { formatDate } from '../../lib/dates'
import { trainingPathPath } from '../../lib/paths'
import type { UserQualificationDashboard } from './api'

/** A person's history of one module (backend qualifications/history.py): every grading, newest first. */
export type ModuleHistory = UserQualificationDashboard['history'][number]
export type ValidationGrading = ModuleHistory['gradings'][number]
type Outcome = ValidationGrading['outcome']

/** The marker's colour of each outcome: the validation held (valid, expired), a failure, the others. */
const MARKER: Record<Outcome, string> = {
  valid: 'success.main',
  expired: 'grey.500',
  renewed: 'success.light',
  failed: 'error.main',
  regraded: 'grey.400',
  canceled: 'grey.400',
}

/** A grade out of 10 with its one decimal as the language writes it (8.5, 8,5). */
function formatGrade(grade: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(grade)
}

/**
 * The history of a module for the person, at the end of the module's row on their qualification status:
 * a button that shows or hides the timeline of its gradings beneath the row. Nothing when the person
 * was never graded in it.
 */
export function ValidationHistory({ history }: { history: ModuleHistory | undefined }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const id = useId()
  if (history === undefined || history.gradings.length === 0) return null
  const count = history.gradings.length
  return (
    <>
      <Button
        size="small"
        startIcon={<HistoryIcon />}
        onClick={() => setOpen((shown) => !shown)}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={t('dashboards.validationHistory.toggleOf', { count, name: history.module.name })}
        sx={{ ml: 'auto', py: 0 }}
      >
        {t('dashboards.validationHistory.toggle', { count })}
      </Button>
      {open && (
        <Box id={id} sx={{ flexBasis: '100%', pt: 1, pl: { xs: 0.5, sm: 2.5 } }}>
          <ValidationTimeline history={history} />
        </Box>
      )}
    </>
  )
}

/** Every grading of the module, newest first, each with what it counts for today. */
export function ValidationTimeline({ history }: { history: ModuleHistory }) {
  const { t } = useTranslation()
  return (
    <Box component="ol" aria-label={t('dashboards.validationHistory.of', { name: history.module.name })} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {history.gradings.map((grading, index) => (
        <TimelineEntry key={grading.id} grading={grading} last={index === history.gradings.length - 1} />
      ))}
    </Box>
  )
}

function TimelineEntry({ grading, last }: { grading: ValidationGrading; last: boolean }) {
  const { t, i18n } = useTranslation()
  const language = i18n.language
  const held = grading.outcome === 'valid' || grading.outcome === 'expired'
  const validity = !grading.isSuccess
    ? undefined
    : grading.permanent
      ? t('dashboards.validationHistory.permanent')
      : grading.validUntil
        ? t('dashboards.validationHistory.validUntil', { date: formatDate(grading.validUntil, language) })
        : undefined
  return (
    <Box component="li" data-outcome={grading.outcome} sx={{ position: 'relative', pl: 3, pb: last ? 0 : 1.5 }}>
      {/* The line joining the markers, and this grading's marker on it. */}
      {!last && <Box aria-hidden sx={{ position: 'absolute', left: 5, top: 14, bottom: 0, width: 2, bgcolor: 'divider' }} />}
      <Box
        aria-hidden
        sx={{
          position: 'absolute',
          left: 0,
          top: 4,
          width: 12,
          height: 12,
          borderRadius: '50%',
          bgcolor: held || grading.outcome === 'failed' ? MARKER[grading.outcome] : 'background.paper',
          border: 2,
          borderColor: MARKER[grading.outcome],
        }}
      />
      <Box sx={{ display: 'flex', alignItems: 'baseline', columnGap: 1, rowGap: 0.5, flexWrap: 'wrap' }}>
        <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
          {formatDate(grading.gradedAt, language)}
        </Typography>
        <Typography variant="body2" component="span" sx={{ color: grading.isSuccess ? 'success.text' : 'error.text', fontWeight: 500 }}>
          {t('dashboards.validationHistory.result', {
            grade: formatGrade(grading.grade, language),
            result: t(grading.isSuccess ? 'dashboards.validationHistory.passed' : 'dashboards.validationHistory.failed'),
          })}
        </Typography>
        {grading.outcome !== 'failed' && (
          <Chip
            size="small"
            variant={grading.outcome === 'valid' ? 'filled' : 'outlined'}
            color={grading.outcome === 'valid' ? 'success' : 'default'}
            label={t(`dashboards.validationHistory.outcomes.${grading.outcome}`)}
            sx={{ height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
          />
        )}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {[
          grading.referent
            ? t('dashboards.validationHistory.gradedBy', { name: grading.referent.name })
            : t('dashboards.validationHistory.gradedByUnknown'),
          validity,
        ]
          .filter(Boolean)
          .join(' · ')}
        {' · '}
        {t('dashboards.validationHistory.path')}{' '}
        {/* Underlined: a link inside a sentence is told from its text by more than its colour. */}
        <Link component={RouterLink} to={trainingPathPath(grading.trainingPath.id)} underline="always">
          {grading.trainingPath.title}
        </Link>
      </Typography>
    </Box>
  )
}
