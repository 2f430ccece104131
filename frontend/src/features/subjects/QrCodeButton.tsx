import QrCode2 from '@mui/icons-material/QrCode2'
import Button from '@mui/material/Button'
import { lazy, Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { LabelItemType } from './qrLabel'

// Loaded on the first opening: the page's own chunk stays as it was.
const QrCodeDialog = lazy(() => import('./QrCodeDialog'))

/** Opens the item's QR code label (docs/documents.md, "QR codes at the workstation"), to print alone. */
export function QrCodeButton({ itemType, itemId }: { itemType: LabelItemType; itemId: number }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button size="small" variant="outlined" startIcon={<QrCode2 />} onClick={() => setOpen(true)} sx={{ whiteSpace: 'nowrap' }}>
        {t('subjects.qrCode.open')}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <QrCodeDialog itemType={itemType} itemId={itemId} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  )
}
