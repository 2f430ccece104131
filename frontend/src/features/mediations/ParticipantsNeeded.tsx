import PersonAddAlt from '@mui/icons-material/PersonAddAlt'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { editMediationPath } from '../../lib/paths'
import type { Mediation } from './api'

/**
 * Tells the mediator that the report needs participants ('Create and start' leaves none), with the way
 * to add them when the server allows it; nothing when the server says the report lacks nothing.
 */
export function ParticipantsNeeded({ mediation, message }: { mediation: Mediation; message: string }) {
  const { t } = useTranslation()
  if (!mediation.can.reportNeeds.includes('participants')) return null
  const add = mediation.can.fields.participants && (
    <Button color="inherit" size="small" component={RouterLink} to={editMediationPath(mediation.id)} startIcon={<PersonAddAlt />}>
      {t('mediations.view.addParticipants')}
    </Button>
  )
  return (
    <Alert severity="info" action={add || undefined}>
      {message}
    </Alert>
  )
}
