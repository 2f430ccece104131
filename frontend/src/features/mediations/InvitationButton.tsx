import EventOutlined from '@mui/icons-material/EventOutlined'
import Button from '@mui/material/Button'
import { useMutation } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { download } from '../../components/downloads/download'

/** The mediation as an event for one's calendar (.ics, the UID of the invitations sent by e-mail). */
export function InvitationButton({ mediationId }: { mediationId: number }) {
  const { t } = useTranslation()
  const save = useMutation({
    mutationFn: () =>
      download(
        api.GET('/backend/api/v2/mediation/{mediationId}/invitation.ics', { params: { path: { mediationId } }, parseAs: 'blob' }),
        `mediation-${mediationId}.ics`,
      ),
  })
  return (
    <Button variant="outlined" startIcon={<EventOutlined />} loading={save.isPending} onClick={() => save.mutate()}>
      {t('mediations.view.addToCalendar')}
    </Button>
  )
}
