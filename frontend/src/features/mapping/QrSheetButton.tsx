import QrCode2 from '@mui/icons-material/QrCode2'
import Button from '@mui/material/Button'
import { useMutation } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { download } from '../../components/downloads/download'

/**
 * The cartography's A4 sheet of QR code labels, made by the server (docs/documents.md, "QR codes at the
 * workstation"): one for the cartography and one per function and activity the reader sees.
 */
export function QrSheetButton({ cartographyId }: { cartographyId: number }) {
  const { t, i18n } = useTranslation()
  const save = useMutation({
    mutationFn: () =>
      download(
        api.GET('/backend/api/v2/cartography/{cartographyId}/labels', {
          params: { path: { cartographyId } },
          headers: { 'Accept-Language': i18n.language },
          parseAs: 'blob',
        }),
        `qr-codes-${cartographyId}.pdf`,
      ),
  })
  return (
    <Button variant="outlined" startIcon={<QrCode2 />} loading={save.isPending} onClick={() => save.mutate()} sx={{ whiteSpace: 'nowrap' }}>
      {t('mapping.cartography.qrSheet')}
    </Button>
  )
}
