import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import FormHelperText from '@mui/material/FormHelperText'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { visuallyHidden } from '@mui/utils'
import { type ChangeEvent, useId, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { FILE_UPLOAD_ERROR, ImageRefused, readSignatureImage } from './reportForm'

interface SignatureImageFieldProps {
  value: string | null
  onChange: (value: string | null) => void
  /** A message key to show under the field (the image was refused). */
  error?: string
  onRefused: (code: string) => void
  message: (code: string | undefined) => string | undefined
}

/** The image printed in the report's signature area (150 × 60 points): a PNG or a JPEG, previewed here. */
export function SignatureImageField({ value, onChange, error, onRefused, message }: SignatureImageFieldProps) {
  const { t } = useTranslation()
  const input = useRef<HTMLInputElement>(null)
  const labelId = useId()
  const helpId = useId()

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    // The same file chosen again after a refusal is a new choice.
    event.target.value = ''
    if (!file) return
    try {
      onChange(await readSignatureImage(file))
    } catch (refusal) {
      onRefused(refusal instanceof ImageRefused ? refusal.message : FILE_UPLOAD_ERROR)
    }
  }

  return (
    <Box role="group" aria-labelledby={labelId} aria-describedby={helpId}>
      <Typography id={labelId} variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('reports.document.signatureImage')}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Box
          sx={{
            width: 150,
            height: 60,
            border: 1,
            borderColor: error ? 'error.main' : 'divider',
            borderRadius: 1,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            bgcolor: 'background.default',
          }}
        >
          {value ? (
            <Box component="img" src={value} alt={t('reports.document.signatureImagePreview')} sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />
          ) : (
            <Typography variant="caption" color="text.secondary">
              {t('reports.document.noSignatureImage')}
            </Typography>
          )}
        </Box>
        <Button variant="outlined" size="small" startIcon={<UploadFileOutlined />} onClick={() => input.current?.click()}>
          {value ? t('reports.document.replaceImage') : t('reports.document.chooseImage')}
        </Button>
        {value && (
          <Button size="small" color="inherit" startIcon={<DeleteOutline />} onClick={() => onChange(null)}>
            {t('reports.document.removeImage')}
          </Button>
        )}
      </Stack>
      <input
        ref={input}
        type="file"
        accept="image/png,image/jpeg"
        aria-label={t('reports.document.imageFile')}
        tabIndex={-1}
        style={visuallyHidden}
        onChange={(event) => void choose(event)}
      />
      <FormHelperText id={helpId} error={error !== undefined}>
        {message(error) ?? t('reports.document.signatureImageHelp')}
      </FormHelperText>
    </Box>
  )
}
