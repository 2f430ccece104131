import PrintOutlined from '@mui/icons-material/PrintOutlined'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { download } from '../../components/downloads/download'
import { Loading } from '../../components/Loading'
import { type LabelItemType, qrLabelQuery } from './qrLabel'

interface Props {
  itemType: LabelItemType
  itemId: number
  onClose: () => void
}

/**
 * The item's QR code as the server draws it, of the address of its page under the organisation's public
 * address, with the name and context it prints beside it; Print saves the label alone as a PDF.
 */
export default function QrCodeDialog({ itemType, itemId, onClose }: Props) {
  const { t, i18n } = useTranslation()
  const { data: label, error } = useQuery(qrLabelQuery(itemType, itemId))
  const print = useMutation({
    mutationFn: () =>
      download(
        api.GET('/backend/api/v2/label/{itemType}/{itemId}/pdf', {
          params: { path: { itemType, itemId } },
          headers: { 'Accept-Language': i18n.language },
          parseAs: 'blob',
        }),
        `qr-code-${itemType}-${itemId}.pdf`,
      ),
  })
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="qr-code-title">
      <DialogTitle id="qr-code-title">{t('subjects.qrCode.title')}</DialogTitle>
      <DialogContent>
        {error ? (
          <Alert severity="error">{t('subjects.qrCode.failed')}</Alert>
        ) : !label ? (
          <Loading />
        ) : (
          <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
            <Box
              component="img"
              src={label.image}
              alt={t('subjects.qrCode.alt', { name: label.name })}
              data-testid="qr-code-image"
              sx={{ width: 240, maxWidth: '100%', aspectRatio: '1', imageRendering: 'pixelated' }}
            />
            <Typography variant="h6" component="p" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {label.name}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {label.context.join(' › ')}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {label.address}
            </Typography>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('subjects.qrCode.close')}</Button>
        <Button variant="contained" startIcon={<PrintOutlined />} disabled={!label} loading={print.isPending} onClick={() => print.mutate()}>
          {t('subjects.qrCode.print')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}
