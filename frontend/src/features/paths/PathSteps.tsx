import Block from '@mui/icons-material/Block'
import Check from '@mui/icons-material/Check'
import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import { useTranslation } from 'react-i18next'
import { currentPathStep, type ModuleStatus, moduleStatusColor, moduleStatusLabel, PATH_STEPS, type PathStatus } from './status'

/**
 * The progression of a path (spec 2 §2): accepted, started, finished, validated, archived, the steps
 * reached marked and the current one emphasised; a canceled path shows a single canceled label.
 */
export function PathSteps({ status }: { status: PathStatus }) {
  const { t } = useTranslation()
  const current = currentPathStep(status)
  if (current === 'canceled') {
    return <Chip size="small" variant="outlined" color="error" icon={<Block />} label={t('trainingPaths.status.canceled')} data-step="canceled" />
  }
  return (
    <Box
      component="ol"
      aria-label={t('trainingPaths.steps.label')}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, listStyle: 'none', m: 0, p: 0, alignItems: 'center' }}
    >
      {PATH_STEPS.map((step, index) => {
        const state = index < current ? 'done' : index === current ? 'current' : 'toCome'
        const label = t(`trainingPaths.status.${step}`)
        return (
          <Box
            component="li"
            key={step}
            data-step={step}
            data-state={state}
            aria-current={state === 'current' ? 'step' : undefined}
            aria-label={t('trainingPaths.steps.state', { step: label, state: t(`trainingPaths.steps.${state}`) })}
            sx={(theme) => ({
              display: 'inline-flex',
              alignItems: 'center',
              gap: 0.5,
              px: 1,
              py: 0.25,
              borderRadius: 3,
              fontSize: '0.75rem',
              fontWeight: state === 'current' ? 700 : 500,
              border: `1px ${state === 'toCome' ? 'dashed' : 'solid'} ${state === 'toCome' ? theme.palette.grey[400] : theme.palette.primary.main}`,
              color: state === 'current' ? theme.palette.primary.contrastText : state === 'done' ? theme.palette.primary.text : theme.palette.text.secondary,
              bgcolor: state === 'current' ? theme.palette.primary.dark : 'transparent',
            })}
          >
            {state === 'done' && <Check sx={{ fontSize: 14 }} aria-hidden />}
            <span aria-hidden>{label}</span>
          </Box>
        )
      })}
    </Box>
  )
}

/** An assigned module's status as a small coloured label (its panel in the view, its line in a card). */
export function ModuleStatusChip({ status }: { status: ModuleStatus }) {
  const { t } = useTranslation()
  return <Chip size="small" variant="outlined" color={moduleStatusColor(status)} label={t(moduleStatusLabel(status))} data-status={status} />
}
