import Box from '@mui/material/Box'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { mediationPath } from '../../lib/paths'
import type { MediationCard } from './api'
import { MediationSteps } from './MediationSteps'
import { cardDate, firstLine, formatDateTime } from './status'

/** The date line of a card: its schedule, its start or its range, by status (spec 1 §4). */
export function useCardDateText(): (mediation: MediationCard) => string {
  const { t, i18n } = useTranslation()
  const at = (value: string) => formatDateTime(value, i18n.language)
  return (mediation) => {
    const date = cardDate(mediation)
    switch (date.kind) {
      case 'scheduledOn':
        return t('mediations.list.scheduledOn', { date: at(date.date) })
      case 'notScheduled':
        return t('mediations.list.notScheduled')
      case 'startedOn':
        return t('mediations.list.startedOn', { date: at(date.date) })
      case 'range':
        // A period covers its start and stop minutes whole: within one minute, it lasted that minute.
        return dayjs(date.start).isSame(date.stop, 'minute')
          ? t('mediations.list.oneMinute', { date: at(date.start) })
          : t('mediations.list.range', { start: at(date.start), stop: at(date.stop) })
      case 'since':
        return t('mediations.list.since', { start: at(date.start) })
    }
  }
}

interface MediationCardViewProps {
  mediation: MediationCard
  /** The item a list was asked to bring into view. */
  targeted: boolean
}

/** A mediation of the list: title (to its page), date, description's first line, mediator, steps. */
export function MediationCardView({ mediation, targeted }: MediationCardViewProps) {
  const { t, i18n } = useTranslation()
  const dateText = useCardDateText()
  const description = firstLine(mediation.description)
  return (
    <Paper
      variant="outlined"
      component="article"
      aria-label={mediation.title}
      sx={(theme) => ({
        px: 2,
        py: 1.5,
        mb: 1.25,
        borderLeft: `4px solid ${mediation.status === 'canceled' ? theme.palette.divider : theme.palette.primary.main}`,
        outline: targeted ? `2px solid ${theme.palette.accent.main}` : 'none',
      })}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ alignItems: { xs: 'flex-start', sm: 'baseline' }, columnGap: 1.5, rowGap: 0.25 }}>
        <Link
          component={RouterLink}
          to={mediationPath(mediation.id)}
          underline="hover"
          sx={{ fontWeight: 600, fontSize: '1.02rem', minWidth: 0, overflowWrap: 'anywhere' }}
        >
          {mediation.title}
        </Link>
        <Box sx={{ flexGrow: 1 }} />
        <Typography variant="body2" color="text.secondary" sx={{ flexShrink: 0 }}>
          {dateText(mediation)}
        </Typography>
      </Stack>
      {description && (
        <Typography variant="body2" sx={{ mt: 0.5, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {description}
        </Typography>
      )}
      <Stack direction="row" sx={{ alignItems: 'center', mt: 1, gap: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 260px' }}>
          {mediation.mediator ? t('mediations.list.mediator', { name: mediation.mediator.name }) : t('mediations.list.noMediator')}
          {mediation.lastUpdate &&
            ` · ${t('mediations.list.lastUpdate', { user: mediation.lastUpdate.userName, date: formatDateTime(mediation.lastUpdate.date, i18n.language) })}`}
        </Typography>
        <MediationSteps status={mediation.status} />
      </Stack>
    </Paper>
  )
}
