import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { Fragment } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { trainingModulePath } from '../../lib/paths'
import type { ModuleCard } from './api'
import { useDurationText, usePeriodicityText } from './elementTexts'

/** A module of the list: name (to its view), type, reference, duration, periodicity, element count, disabled marker. */
export function ModuleCardView({ module, targeted }: { module: ModuleCard; targeted: boolean }) {
  const { t } = useTranslation()
  const duration = useDurationText()
  const periodicity = usePeriodicityText()
  const facts = [
    t(`modules.types.${module.moduleType}`),
    module.reference ? t('modules.referenceText', { code: module.reference.code, label: module.reference.label }) : t('modules.noReference'),
    t('modules.list.duration', { duration: duration(module.estimatedDuration) }),
    periodicity(module.periodicity),
    t('modules.list.elements', { count: module.itemCount }),
  ]
  return (
    <Paper
      variant="outlined"
      component="article"
      aria-label={module.name}
      sx={(theme) => ({
        px: 2,
        py: 1.5,
        mb: 1.25,
        borderLeft: `4px solid ${module.enabled ? theme.palette.primary.main : theme.palette.divider}`,
        outline: targeted ? `2px solid ${theme.palette.accent.main}` : 'none',
      })}
    >
      <Stack direction="row" sx={{ alignItems: 'baseline', columnGap: 1.5, rowGap: 0.5, flexWrap: 'wrap' }}>
        <Link component={RouterLink} to={trainingModulePath(module.id)} underline="hover" sx={{ fontWeight: 600, fontSize: '1.02rem', minWidth: 0, overflowWrap: 'anywhere' }}>
          {module.name}
        </Link>
        {!module.enabled && <Chip size="small" label={t('modules.disabled')} />}
        <Box sx={{ flexGrow: 1 }} />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {facts.map((fact, index) => (
          // Each fact wraps as a whole when the line is full ('Duration: 2 H 30 Mn' stays on one line).
          <Fragment key={index}>
            {index > 0 && ' · '}
            <Box component="span" sx={{ display: 'inline-block' }}>
              {fact}
            </Box>
          </Fragment>
        ))}
      </Typography>
    </Paper>
  )
}
