import Box from '@mui/material/Box'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { Fragment } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { trainingPathPath } from '../../lib/paths'
import type { CompletionOf } from '../../components/Completion'
import { formatDate } from '../../lib/dates'
import type { PathCard } from './api'
import { PathSteps } from './PathSteps'

/** A completion as a percentage in the spec's colours (spec 2 §9), or 'not quantifiable' when -1. */
export function CompletionText({ of: { completion, completionColour: colour } }: { of: CompletionOf }) {
  const { t } = useTranslation()
  return (
    <Box
      component="span"
      data-completion-color={colour ?? 'none'}
      sx={(theme) => ({ display: 'inline-block', fontWeight: 600, color: colour ? theme.palette[colour].text : theme.palette.text.secondary })}
    >
      {completion < 0 ? t('trainingPaths.completionUnknown') : t('trainingPaths.completion', { value: completion })}
    </Box>
  )
}

/** A path of the list: title (to its view), reference, learner, dates, completion and its steps. */
export function PathCardView({ path, targeted }: { path: PathCard; targeted: boolean }) {
  const { t, i18n } = useTranslation()
  const date = (value: string) => formatDate(value, i18n.language)
  const facts = [
    path.reference ? t('trainingPaths.referenceText', { code: path.reference.code, label: path.reference.label }) : t('trainingPaths.noReference'),
    t('trainingPaths.list.learner', { name: path.learner?.name ?? t('trainingPaths.unknownUser') }),
    t('trainingPaths.list.dates', { start: date(path.startDate), stop: date(path.stopDate) }),
    t('trainingPaths.list.modules', { count: path.totalAssignedModules }),
    // A requalification Spot opened itself: it has no creator.
    ...(path.openedBySpot ? [t('trainingPaths.list.openedBySpot')] : []),
  ]
  return (
    <Paper
      variant="outlined"
      component="article"
      aria-label={path.title}
      data-status={path.status}
      sx={(theme) => ({
        px: 2,
        py: 1.5,
        mb: 1.25,
        borderLeft: `4px solid ${path.status === 'canceled' ? theme.palette.divider : theme.palette.primary.main}`,
        outline: targeted ? `2px solid ${theme.palette.accent.main}` : 'none',
      })}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ alignItems: { xs: 'flex-start', sm: 'baseline' }, columnGap: 1.5, rowGap: 0.25 }}>
        <Link component={RouterLink} to={trainingPathPath(path.id)} underline="hover" sx={{ fontWeight: 600, fontSize: '1.02rem', minWidth: 0, overflowWrap: 'anywhere' }}>
          {path.title}
        </Link>
        <Box sx={{ flexGrow: 1 }} />
        <Typography variant="body2" sx={{ flexShrink: 0 }}>
          <CompletionText of={path} />
        </Typography>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {facts.map((fact, index) => (
          <Fragment key={index}>
            {index > 0 && ' · '}
            <Box component="span" sx={{ display: 'inline-block' }}>
              {fact}
            </Box>
          </Fragment>
        ))}
      </Typography>
      <Box sx={{ mt: 1 }}>
        <PathSteps status={path.status} />
      </Box>
    </Paper>
  )
}
