import UploadFile from '@mui/icons-material/UploadFile'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import FormHelperText from '@mui/material/FormHelperText'
import LinearProgress from '@mui/material/LinearProgress'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { Controller, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { isApiError } from '../../api/errors'
import { showServerFieldErrors } from '../../lib/forms'
import { useMessage } from '../../lib/messages'
import { FormDialog } from '../FormDialog'
import { TextInput } from '../TextInput'
import { type Parent, RESOURCE_FIELDS, type Resource, useCreateResource, useUpdateResource } from './api'
import { acceptedFiles, isFileType, RESOURCE_TYPES, type ResourceForm, resourceSchema, youtubeWatchUrl } from './rules'

function formOf(resource: Resource | undefined): ResourceForm {
  if (!resource) return { resourceType: 'image', name: '', link: '', comment: '', file: null }
  const link = resource.resourceType === 'youtube' ? youtubeWatchUrl(resource.link) : resource.link
  return { id: resource.id, resourceType: resource.resourceType, name: resource.name, link, comment: resource.comment, file: null }
}

/** Adds a resource, or edits `resource` (its type locked): the spec's rules checked as typed, the
 * server's answers shown on their fields, the upload's progress shown while it is sent. */
export function ResourceDialog({ parent, resource, onClose }: { parent: Parent; resource?: Resource; onClose: () => void }) {
  const { t } = useTranslation()
  const message = useMessage()
  const create = useCreateResource(parent)
  const update = useUpdateResource(parent)
  const [progress, setProgress] = useState<number>()
  const [stale, setStale] = useState(false)
  const { control, handleSubmit, setError, formState } = useForm<ResourceForm>({
    resolver: zodResolver(resourceSchema),
    defaultValues: formOf(resource),
  })
  const type = useWatch({ control, name: 'resourceType' })
  const file = useWatch({ control, name: 'file' })
  const editing = resource !== undefined

  const failed = (error: Error) => {
    setProgress(undefined)
    if (isApiError(error, 409)) setStale(true)
    else showServerFieldErrors(error, RESOURCE_FIELDS, setError)
  }
  const save = (form: ResourceForm) => {
    if (resource) {
      const body = { name: form.name, link: form.link, comment: form.comment, version: resource.version, resourceType: resource.resourceType }
      update.mutate({ resourceId: resource.id, body }, { onSuccess: onClose, onError: failed })
      return
    }
    const link = isFileType(form.resourceType) ? (form.file?.name.trim() ?? '') : form.link
    setProgress(0)
    create.mutate(
      { resource: { resourceType: form.resourceType, name: form.name, link, comment: form.comment }, file: isFileType(form.resourceType) ? form.file : null, onProgress: setProgress },
      { onSuccess: onClose, onError: failed },
    )
  }

  return (
    <FormDialog
      title={editing ? t('gallery.editTitle', { name: resource.name }) : t('gallery.addTitle')}
      hasErrors={Object.keys(formState.errors).length > 0}
      submitting={create.isPending || update.isPending}
      onSubmit={(event) => void handleSubmit(save)(event)}
      onClose={onClose}
    >
      <Controller
        control={control}
        name="resourceType"
        render={({ field: { ref, ...field } }) => (
          <TextField
            {...field}
            inputRef={ref}
            select
            label={t('gallery.fields.type')}
            disabled={editing}
            helperText={editing ? t('gallery.typeLocked') : ' '}
            fullWidth
          >
            {RESOURCE_TYPES.map((kind) => (
              <MenuItem key={kind} value={kind}>
                {t(`gallery.types.${kind}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <TextInput control={control} name="name" label={t('gallery.fields.name')} required autoFocus autoComplete="off" />
      {!isFileType(type) && (
        <TextInput
          control={control}
          name="link"
          label={t(type === 'youtube' ? 'gallery.fields.youtube' : 'gallery.fields.link')}
          required
          autoComplete="off"
        />
      )}
      {isFileType(type) && !editing && (
        <Controller
          control={control}
          name="file"
          render={({ field, fieldState }) => (
            <Stack spacing={0.5}>
              <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                <Button component="label" variant="outlined" startIcon={<UploadFile />} color={fieldState.error ? 'error' : 'primary'}>
                  {t('gallery.fields.chooseFile')}
                  <input
                    type="file"
                    hidden
                    accept={acceptedFiles(type)}
                    aria-label={t('gallery.fields.file')}
                    onChange={(event) => field.onChange(event.target.files?.[0] ?? null)}
                  />
                </Button>
                <Typography variant="body2" color={file ? 'text.primary' : 'text.secondary'} sx={{ overflowWrap: 'anywhere' }}>
                  {file ? file.name : t('gallery.fields.noFile')}
                </Typography>
              </Stack>
              <FormHelperText error={fieldState.error !== undefined}>{message(fieldState.error?.message) ?? ' '}</FormHelperText>
            </Stack>
          )}
        />
      )}
      {isFileType(type) && editing && (
        <Typography variant="body2" color="text.secondary">
          {t('gallery.fields.storedFile', { name: resource.link })}
        </Typography>
      )}
      <Controller
        control={control}
        name="comment"
        render={({ field: { ref, ...field }, fieldState }) => (
          <TextField
            {...field}
            inputRef={ref}
            label={t('gallery.fields.comment')}
            multiline
            minRows={2}
            error={fieldState.error !== undefined}
            helperText={message(fieldState.error?.message) ?? ' '}
            fullWidth
          />
        )}
      />
      {progress !== undefined && (
        <Stack spacing={0.5}>
          <LinearProgress variant="determinate" value={Math.round(progress * 100)} aria-label={t('gallery.uploading')} />
          <Typography variant="caption" color="text.secondary">
            {t('gallery.progress', { percent: Math.round(progress * 100) })}
          </Typography>
        </Stack>
      )}
      {stale && <Alert severity="warning">{t('gallery.stale')}</Alert>}
    </FormDialog>
  )
}
