import { zodResolver } from '@hookform/resolvers/zod'
import Check from '@mui/icons-material/Check'
import ContentCopy from '@mui/icons-material/ContentCopy'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import { useRef, useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { DIALOG_WIDTH, FormDialog } from '../../components/FormDialog'
import { TextInput } from '../../components/TextInput'
import { showServerFieldErrors } from '../../lib/forms'
import { text } from '../../lib/text'
import { API_TOKEN_FIELDS, API_TOKEN_SCOPES, type ApiTokenCreated, useCreateApiToken } from './api'

/** The server's bound on a token's name (ApiTokenCreate). */
const NAME_MAX_LENGTH = 200

const schema = z.object({
  name: text().refine((name) => name.length <= NAME_MAX_LENGTH, 'string_too_long'),
  scope: z.enum(API_TOKEN_SCOPES),
})
type ApiTokenForm = z.infer<typeof schema>

/** Creates an API token, then shows its value, this once, until Done. */
export function ApiTokenDialog({ onDone, onClose }: { onDone: () => void; onClose: () => void }) {
  const [created, setCreated] = useState<ApiTokenCreated>()
  return created ? <TokenValueDialog created={created} onDone={onDone} /> : <CreateTokenDialog onCreated={setCreated} onClose={onClose} />
}

function CreateTokenDialog({ onCreated, onClose }: { onCreated: (created: ApiTokenCreated) => void; onClose: () => void }) {
  const { t } = useTranslation()
  const create = useCreateApiToken()
  const { control, handleSubmit, setError, formState } = useForm<ApiTokenForm>({
    resolver: zodResolver(schema),
    defaultValues: { name: '', scope: 'scim' },
  })
  const save = (body: ApiTokenForm) =>
    create.mutate(body, { onSuccess: onCreated, onError: (error) => showServerFieldErrors(error, API_TOKEN_FIELDS, setError) })
  return (
    <FormDialog
      title={t('apiTokens.createTitle')}
      hasErrors={Object.keys(formState.errors).length > 0}
      submitting={create.isPending}
      submitLabel={t('apiTokens.createSubmit')}
      onSubmit={(event) => void handleSubmit(save)(event)}
      onClose={onClose}
    >
      <TextInput control={control} name="name" label={t('apiTokens.name')} required autoFocus autoComplete="off" />
      <Controller
        control={control}
        name="scope"
        render={({ field: { ref, ...field } }) => (
          <TextField {...field} inputRef={ref} select required label={t('apiTokens.scope')} helperText=" ">
            {API_TOKEN_SCOPES.map((scope) => (
              <MenuItem key={scope} value={scope}>
                {t(`apiTokens.scopes.${scope}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
    </FormDialog>
  )
}

/**
 * The new token's value, which the server gives this once (it keeps only its hash): a click beside the
 * dialog does not close it, only Done (or Escape) does.
 */
function TokenValueDialog({ created, onDone }: { created: ApiTokenCreated; onDone: () => void }) {
  const { t } = useTranslation()
  const field = useRef<HTMLInputElement>(null)
  const [copied, setCopied] = useState<boolean>()
  const copy = async () => {
    try {
      // Undefined outside a secure context (plain http): the TypeError is caught like a refusal.
      await navigator.clipboard.writeText(created.token)
      setCopied(true)
    } catch {
      setCopied(false)
      field.current?.select()
    }
  }
  return (
    <Dialog
      open
      onClose={(_event, reason) => reason !== 'backdropClick' && onDone()}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: DIALOG_WIDTH, maxWidth: '100%' } } }}
    >
      <DialogTitle>{t('apiTokens.valueTitle', { name: created.record.name })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Alert severity="warning">{t('apiTokens.valueWarning')}</Alert>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              label={t('apiTokens.value')}
              value={created.token}
              inputRef={field}
              autoFocus
              fullWidth
              onFocus={(event) => event.target.select()}
              slotProps={{ input: { readOnly: true, sx: { fontFamily: 'monospace' } }, htmlInput: { spellCheck: false } }}
            />
            <Button variant="outlined" startIcon={copied ? <Check /> : <ContentCopy />} onClick={() => void copy()} sx={{ flexShrink: 0 }}>
              {copied ? t('apiTokens.copied') : t('apiTokens.copy')}
            </Button>
          </Stack>
          {copied === false && <Alert severity="error">{t('apiTokens.copyFailed')}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onDone}>
          {t('apiTokens.done')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}
