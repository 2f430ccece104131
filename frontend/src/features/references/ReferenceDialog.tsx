import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import FormControlLabel from '@mui/material/FormControlLabel'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import Typography from '@mui/material/Typography'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { isApiError } from '../../api/errors'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { Loading } from '../../components/Loading'
import { StaleVersionNotice } from '../../components/StaleVersionNotice'
import { TextInput } from '../../components/TextInput'
import { showServerFieldErrors } from '../../lib/forms'
import { useMessage } from '../../lib/messages'
import { REFERENCE_FIELDS, type Reference, type ReferenceType, referenceQuery, useDeleteReference, useSaveReference } from './api'
import { EMPTY_REFERENCE, formFromReference, type ReferenceForm, referenceSchema, savePayload } from './referenceForm'

/** The reference edit dialog's width (spec 2 §9). */
export const REFERENCE_DIALOG_WIDTH = 800

interface ReferenceDialogProps {
  type: ReferenceType
  /** The reference to edit, or null to create one. */
  code: string | null
  onClose: () => void
}

const TITLE_ID = 'reference-dialog-title'

/**
 * The 800-px reference dialog (spec 2 §2 'Module and path references'): create (code empty) or edit
 * (code read-only) the label, the description and whether it is enabled; delete one nothing uses.
 * A click outside does not close it (what was typed would be lost); Escape does.
 */
export function ReferenceDialog({ type, code, onClose }: ReferenceDialogProps) {
  return (
    <Dialog
      open
      onClose={(_event, reason) => {
        if (reason !== 'backdropClick') onClose()
      }}
      maxWidth={false}
      aria-labelledby={TITLE_ID}
      slotProps={{ paper: { sx: { width: REFERENCE_DIALOG_WIDTH, maxWidth: '100%' } } }}
    >
      {code === null ? <ReferenceFormView type={type} onClose={onClose} /> : <EditReference type={type} code={code} onClose={onClose} />}
    </Dialog>
  )
}

function EditReference({ type, code, onClose }: { type: ReferenceType; code: string; onClose: () => void }) {
  const { t } = useTranslation()
  const message = useMessage()
  const { data: source, error } = useQuery(referenceQuery(type, code))
  if (error) {
    return (
      <>
        <DialogTitle id={TITLE_ID}>{t(`references.${type}.editTitle`)}</DialogTitle>
        <DialogContent>
          <Alert severity="error">{message(error.message)}</Alert>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('actions.close')}</Button>
        </DialogActions>
      </>
    )
  }
  if (!source) {
    // The dialog is named by its title while the reference loads too.
    return (
      <>
        <DialogTitle id={TITLE_ID}>{t(`references.${type}.editTitle`)}</DialogTitle>
        <DialogContent>
          <Loading />
        </DialogContent>
      </>
    )
  }
  return <ReferenceFormView type={type} source={source} onClose={onClose} />
}

function ReferenceFormView({ type, source, onClose }: { type: ReferenceType; source?: Reference; onClose: () => void }) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const [stale, setStale] = useState(false)
  const [inUse, setInUse] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const save = useSaveReference(type)
  const remove = useDeleteReference(type)
  const { control, handleSubmit, setError, formState } = useForm<ReferenceForm>({
    resolver: zodResolver(referenceSchema),
    defaultValues: source ? formFromReference(source) : EMPTY_REFERENCE,
  })
  const readAgain = () => void queryClient.invalidateQueries({ queryKey: referenceQuery(type, source?.code ?? '').queryKey, exact: true })

  const submit = (form: ReferenceForm) => {
    setStale(false)
    save.mutate(savePayload(form, source?.version), {
      onSuccess: onClose,
      onError: (error) => {
        if (isApiError(error, 409) && error.message === 'staleVersion') setStale(true)
        else showServerFieldErrors(error, REFERENCE_FIELDS, setError)
      },
    })
  }

  const confirmDelete = () => {
    if (!source) return
    remove.mutate(source.code, {
      onSuccess: onClose,
      onError: (error) => {
        setConfirming(false)
        if (isApiError(error, 409)) {
          setInUse(true)
          readAgain()
        }
      },
    })
  }

  const title = t(source ? `references.${type}.editTitle` : `references.${type}.newTitle`)
  return (
    <form onSubmit={(event) => void handleSubmit(submit)(event)} noValidate aria-labelledby={TITLE_ID}>
      <DialogTitle id={TITLE_ID}>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={1} sx={{ pt: 1 }}>
          <TextInput
            control={control}
            name="code"
            label={t('references.fields.code')}
            required
            autoComplete="off"
            autoFocus={!source}
            readOnly={source !== undefined}
            readOnlyHelp={t('references.dialog.codeReadOnly')}
          />
          <TextInput control={control} name="label" label={t('references.fields.label')} required autoComplete="off" autoFocus={source !== undefined} />
          <TextInput control={control} name="description" label={t('references.fields.description')} multiline />
          <Controller
            control={control}
            name="enabled"
            render={({ field: { value, onChange, ref, ...field } }) => (
              <FormControlLabel
                control={<Switch {...field} slotProps={{ input: { ref } }} checked={value} onChange={(_event, checked) => onChange(checked)} />}
                label={t('references.dialog.enabled')}
              />
            )}
          />
          {source && source.usage > 0 && (
            <Typography variant="body2" color="text.secondary">
              {t(`references.${type}.usage`, { count: source.usage })}
            </Typography>
          )}
          {Object.keys(formState.errors).length > 0 && <Alert severity="error">{t('codes.atLeastOneErrorLeft')}</Alert>}
          {inUse && <Alert severity="warning">{t('codes.referenceInUse')}</Alert>}
          {stale && source && (
            <StaleVersionNotice message={t('references.dialog.stale')} readAgainLabel={t('references.dialog.readAgain')} onReadAgain={readAgain} />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        {source?.can.delete && source.usage === 0 && (
          <Button color="error" onClick={() => setConfirming(true)}>
            {t('actions.delete')}
          </Button>
        )}
        <Box sx={{ flexGrow: 1 }} />
        <Button onClick={onClose}>{t('actions.cancel')}</Button>
        {(!source || source.can.edit) && (
          <Button type="submit" variant="contained" loading={save.isPending}>
            {t('actions.save')}
          </Button>
        )}
      </DialogActions>
      {confirming && source && (
        <ConfirmDialog
          title={t('references.dialog.deleteTitle')}
          message={t('references.dialog.deleteMessage', { code: source.code, label: source.label })}
          confirmLabel={t('actions.delete')}
          pending={remove.isPending}
          onConfirm={confirmDelete}
          onClose={() => setConfirming(false)}
        />
      )}
    </form>
  )
}
