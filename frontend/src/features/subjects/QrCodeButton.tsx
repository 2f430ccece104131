import QrCode2 from '@mui/icons-material/QrCode2'
import Button from '@mui/material/Button'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { LabelItemType } from './qrLabel'

// In the subject pages' chunk, itself loaded with them, rather than a chunk of its own: a lazy dialog of
// its own made the bundler split the initial chunks the dialog shares (Modal, Portal, useQuery) into
// smaller files, over the initial JavaScript's budget (docs/documents.md).
import QrCodeDialog from './QrCodeDialog'

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
        <QrCodeDialog itemType={itemType} itemId={itemId} onClose={() => setOpen(false)} />
      )}
    </>
  )
}
