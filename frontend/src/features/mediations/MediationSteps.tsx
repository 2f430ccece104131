import Block from '@mui/icons-material/Block'
import Check from '@mui/icons-material/Check'
import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import { useTranslation } from 'react-i18next'
import { currentStep, STEPS } from './status'

/**
 * The list's step indicator (spec 1 §4): in progress, stopped, validated, archived, the steps reached
 * marked and the current one emphasised; a canceled mediation shows a single canceled label.
 */
export function MediationSteps({ status }: { status: string }) {
  const { t } = useTranslation()
  const current = currentStep(status)
  if (current === 'canceled') {
    return <Chip size="small" variant="outlined" color="error" icon={<Block />} label={t('mediations.steps.canceled')} data-step="canceled" />
  }
  return (
    <Box
      component="ol"
      aria-label={t('mediations.steps.label')}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, listStyle: 'none', m: 0, p: 0, alignItems: 'center' }}
    >
      {STEPS.map((step, index) => {
        const state = index < current ? 'done' : index === current ? 'current' : 'toCome'
        return (
          <Box
            component="li"
            key={step}
            data-state={state}
            aria-current={state === 'current' ? 'step' : undefined}
            aria-label={t('mediations.steps.state', { step: t(`mediations.steps.${step}`), state: t(`mediations.steps.${state}`) })}
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
            <span aria-hidden>{t(`mediations.steps.${step}`)}</span>
          </Box>
        )
      })}
    </Box>
  )
}
