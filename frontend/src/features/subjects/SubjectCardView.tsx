import VerifiedUser from '@mui/icons-material/VerifiedUser'
import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { subjectPath } from '../../lib/paths'
import type { SubjectCard } from './api'
import { ContextLinks } from './ContextLinks'
import { LegacyButtons } from './LegacyButtons'
import { useLifetimeText } from './lifetime'
import { NodeStatusChip } from './NodeStatusChip'
import { StepMarkers } from './StepMarkers'

interface SubjectCardViewProps {
  subject: SubjectCard
  unread: boolean
  /** The item a list was asked to bring into view. */
  targeted: boolean
}

/** A subject of the list (spec 1 §2): name, context, marks, last update, main-node status. */
export function SubjectCardView({ subject, unread, targeted }: SubjectCardViewProps) {
  const { t } = useTranslation()
  const lifetime = useLifetimeText()
  const [functionPath, activityPath] = [
    subject.contexts.find((path) => path.some((entry) => entry.type === 'function')),
    subject.contexts.find((path) => path.some((entry) => entry.type === 'activity')),
  ]
  // The activity path repeats the site and cartography of the function path.
  const activitySteps = activityPath?.filter((entry) => entry.type === 'activity') ?? []

  return (
    <Paper
      variant="outlined"
      component="article"
      aria-label={subject.name}
      data-unread={unread}
      sx={(theme) => ({
        px: 2,
        py: 1.5,
        mb: 1.25,
        borderLeft: `4px solid ${unread ? theme.palette.primary.main : theme.palette.divider}`,
        outline: targeted ? `2px solid ${theme.palette.accent.main}` : 'none',
      })}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
        {subject.lifetimeEvents.standardized && (
          <Tooltip title={t('subjects.marks.standardized')}>
            <VerifiedUser fontSize="small" sx={{ color: 'accent.main' }} aria-label={t('subjects.marks.standardized')} aria-hidden={false} />
          </Tooltip>
        )}
        <Link
          component={RouterLink}
          to={subjectPath(subject.id)}
          underline="hover"
          sx={{ fontWeight: unread ? 700 : 600, fontSize: '1.02rem', minWidth: 0, overflowWrap: 'anywhere' }}
        >
          {subject.name}
        </Link>
        {unread && <Chip size="small" color="primary" label={t('subjects.list.unread')} sx={{ height: 20, fontSize: '0.7rem' }} />}
        <Box sx={{ flexGrow: 1 }} />
        <LegacyButtons subject={subject} compact />
      </Stack>
      <Box sx={{ mt: 0.25, color: 'text.secondary' }}>
        {functionPath && <ContextLinks path={[...functionPath, ...activitySteps]} dense />}
      </Box>
      <Stack direction="row" sx={{ alignItems: 'center', mt: 1, gap: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 260px' }}>
          {t('subjects.list.lastUpdate', { when: lifetime(subject.lifetimeEvents.lastUpdate, t('subjects.never')) })}
        </Typography>
        <NodeStatusChip status={subject.mainNodeStatus} />
        <StepMarkers subject={subject} />
      </Stack>
    </Paper>
  )
}
