import { zodResolver } from '@hookform/resolvers/zod'
import EditOutlined from '@mui/icons-material/EditOutlined'
import HealthAndSafetyOutlined from '@mui/icons-material/HealthAndSafetyOutlined'
import IconButton from '@mui/material/IconButton'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { isApiError } from '../../api/errors'
import { FormDialog } from '../../components/FormDialog'
import { Notice } from '../../components/Notice'
import { StaleVersionNotice } from '../../components/StaleVersionNotice'
import { TextInput } from '../../components/TextInput'
import { showServerFieldErrors } from '../../lib/forms'
import { optionalText } from '../../lib/text'
import { MEASURES_FIELDS, type Subject, subjectQuery, useSavePreventionMeasures } from './api'

const MAX_LENGTH = 5000
const schema = z.object({ preventionMeasures: optionalText().pipe(z.string().max(MAX_LENGTH, { message: 'string_too_long' })) })
type MeasuresForm = z.infer<typeof schema>

/**
 * The subject's prevention measures (docs/documents.md: the DUERP prints them), shown to every reader and
 * edited by those who may edit the subject (`can.edit`).
 */
export function PreventionMeasures({ subject }: { subject: Subject }) {
  const { t } = useTranslation()
  const [editing, setEditing] = useState(false)
  const [notice, setNotice] = useState<string>()
  return (
    <Paper variant="outlined" component="section" aria-label={t('subjects.measures.title')} sx={{ mt: 2.5, px: 2.5, py: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1.5, mb: 1 }}>
        <HealthAndSafetyOutlined color="primary" />
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flexGrow: 1 }}>
          {t('subjects.measures.title')}
        </Typography>
        {subject.can.edit && (
          <Tooltip title={t('subjects.measures.edit')}>
            <IconButton aria-label={t('subjects.measures.edit')} onClick={() => setEditing(true)}>
              <EditOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Stack>
      {subject.preventionMeasures ? (
        <Typography sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{subject.preventionMeasures}</Typography>
      ) : (
        <Typography color="text.secondary">{t('subjects.measures.none')}</Typography>
      )}
      {editing && (
        <MeasuresDialog
          subject={subject}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false)
            setNotice(t('subjects.measures.saved'))
          }}
        />
      )}
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </Paper>
  )
}

function MeasuresDialog({ subject, onClose, onSaved }: { subject: Subject; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const save = useSavePreventionMeasures(subject.id)
  const [stale, setStale] = useState(false)
  const { control, handleSubmit, setError, formState } = useForm<MeasuresForm>({
    resolver: zodResolver(schema),
    defaultValues: { preventionMeasures: subject.preventionMeasures },
  })
  // The version of the subject as the page now holds it: after "read again", the next save goes through.
  const submit = (form: MeasuresForm) => {
    setStale(false)
    save.mutate(
      { preventionMeasures: form.preventionMeasures, version: subject.version },
      {
        onSuccess: onSaved,
        onError: (error) => {
          if (isApiError(error, 409) && error.message === 'staleVersion') setStale(true)
          else showServerFieldErrors(error, MEASURES_FIELDS, setError)
        },
      },
    )
  }
  return (
    <FormDialog
      title={t('subjects.measures.title')}
      hasErrors={Object.keys(formState.errors).length > 0}
      submitting={save.isPending}
      onSubmit={handleSubmit(submit)}
      onClose={onClose}
    >
      <Typography variant="body2" color="text.secondary">
        {t('subjects.measures.help')}
      </Typography>
      <TextInput control={control} name="preventionMeasures" label={t('subjects.measures.title')} multiline autoFocus />
      {stale && (
        <StaleVersionNotice
          message={t('subjects.measures.stale')}
          readAgainLabel={t('subjects.measures.readAgain')}
          onReadAgain={() => {
            setStale(false)
            void queryClient.invalidateQueries({ queryKey: subjectQuery(subject.id).queryKey, exact: true })
          }}
        />
      )}
    </FormDialog>
  )
}
