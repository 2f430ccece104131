import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined'
import Button from '@mui/material/Button'
import { visuallyHidden } from '@mui/utils'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { isApiError } from '../../api/errors'
import { download } from '../../components/downloads/download'
import { type Mediation, mediationQuery } from './api'

interface AttendanceSheetButtonProps {
  mediation: Mediation
  /** Tells the user the sheet was refused because the mediation changed meanwhile (invalidated). */
  onConflict: (message: string) => void
}

/**
 * Downloads the mediation's attendance sheet (a PDF of its periods, its participants' signatures and its
 * mediator's validation, in the reader's language), shown when the server allows it (`can.attendanceSheet`:
 * once validated). A mediation invalidated meanwhile (409, its status in the error) is read again and
 * the page says so.
 */
export function AttendanceSheetButton({ mediation, onConflict }: AttendanceSheetButtonProps) {
  const { t, i18n } = useTranslation()
  const queryClient = useQueryClient()
  const mediationId = mediation.id
  const sheet = useMutation({
    mutationFn: () =>
      download(
        api.GET('/backend/api/v2/mediation/{mediationId}/attendanceSheet', {
          params: { path: { mediationId } },
          headers: { 'Accept-Language': i18n.language },
          parseAs: 'blob',
        }),
        `attendance-sheet-${mediationId}.pdf`,
      ),
    meta: { handledStatuses: [409] },
    onError: (error) => {
      if (!isApiError(error, 409)) return
      void queryClient.invalidateQueries({ queryKey: mediationQuery(mediationId).queryKey, exact: true })
      const current = error.errors.find((e) => e.field === 'status')?.code
      onConflict(current ? t('mediations.view.conflict', { status: t(`mediationStatuses.${current}`) }) : t('mediations.view.conflictUnknown'))
    },
  })
  if (!mediation.can.attendanceSheet) return null
  return (
    <>
      <Button variant="outlined" startIcon={<PictureAsPdfOutlined />} loading={sheet.isPending} onClick={() => sheet.mutate()}>
        {t('mediations.view.attendanceSheet')}
      </Button>
      <span aria-live="polite" style={visuallyHidden}>
        {sheet.isSuccess ? t('mediations.view.attendanceSheetDownloaded') : ''}
      </span>
    </>
  )
}
