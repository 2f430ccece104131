import { zodResolver } from '@hookform/resolvers/zod'
import Box from '@mui/material/Box'
import FormHelperText from '@mui/material/FormHelperText'
import Slider from '@mui/material/Slider'
import Typography from '@mui/material/Typography'
import { useId } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormDialog } from '../../components/FormDialog'
import { TextInput } from '../../components/TextInput'
import { showServerFieldErrors } from '../../lib/forms'
import { useMessage } from '../../lib/messages'
import { EMPTY_FIELD, text } from '../../lib/text'
import { type GradeInput, gradeModule, usePathAction } from './actions'
import type { AssignedModule } from './api'
import { formatGrade } from './viewTexts'

const schema = z.object({
  grade: z
    .number()
    .nullable()
    .refine((grade) => grade !== null, EMPTY_FIELD),
  comment: text(),
})

const GRADE_FIELDS = ['grade', 'comment']

interface GradeDialogProps {
  pathId: number
  /** The path's version as read: a grade given meanwhile by someone else refuses this one (409). */
  version: number
  module: AssignedModule
  onGraded: () => void
  onClose: () => void
}

/**
 * Grades a module, or changes its grade (spec 2 §5 Module grading): a grade out of 10 by tenths on a
 * slider, shown as not defined until it is moved, and a comment; both are required.
 */
export function GradeDialog({ pathId, version, module, onGraded, onClose }: GradeDialogProps) {
  const { t, i18n } = useTranslation()
  const message = useMessage()
  const labelId = useId()
  const grade = usePathAction(pathId, (body: GradeInput) => gradeModule(pathId, module.index, { ...body, version }), { formFields: GRADE_FIELDS })
  const { control, handleSubmit, setError, formState } = useForm<GradeInput>({
    resolver: zodResolver(schema),
    defaultValues: { grade: null, comment: '' },
  })
  const submit = (body: GradeInput) =>
    grade.mutate(body, {
      onSuccess: onGraded,
      onError: (error) => showServerFieldErrors(error, GRADE_FIELDS, setError),
    })
  return (
    <FormDialog
      title={t(module.grading ? 'trainingPath.gradeDialog.changeTitle' : 'trainingPath.gradeDialog.title', { name: module.module.name })}
      hasErrors={Object.keys(formState.errors).length > 0}
      submitting={grade.isPending}
      submitLabel={t('trainingPath.gradeDialog.submit')}
      onSubmit={(event) => void handleSubmit(submit)(event)}
      onClose={onClose}
    >
      <Controller
        control={control}
        name="grade"
        render={({ field, fieldState }) => (
          <Box sx={{ px: 1 }}>
            <Typography id={labelId} variant="body2" color="text.secondary" component="div">
              {t('trainingPath.gradeDialog.grade')}
            </Typography>
            <Typography variant="h6" component="output" aria-live="polite" aria-labelledby={labelId}>
              {field.value === null
                ? t('trainingPath.notDefined')
                : t('trainingPath.outOfTen', { value: formatGrade(field.value, i18n.language) })}
            </Typography>
            <Slider
              ref={field.ref}
              name={field.name}
              // Not defined until moved: the thumb rests at 0 without being a grade.
              value={field.value ?? 0}
              onChange={(_event, value) => field.onChange(Math.round((value as number) * 10) / 10)}
              onBlur={field.onBlur}
              min={0}
              max={10}
              step={0.1}
              marks={[0, 5, 10].map((value) => ({ value, label: String(value) }))}
              aria-labelledby={labelId}
              getAriaValueText={(value) => (field.value === null ? t('trainingPath.notDefined') : t('trainingPath.outOfTen', { value: formatGrade(value, i18n.language) }))}
              color={fieldState.error ? 'error' : 'primary'}
            />
            {fieldState.error && <FormHelperText error>{message(fieldState.error.message)}</FormHelperText>}
          </Box>
        )}
      />
      <Typography variant="body2" color="text.secondary">
        {t('trainingPath.gradeDialog.threshold', { value: module.module.passThreshold })}
      </Typography>
      <TextInput control={control} name="comment" label={t('trainingPath.gradeDialog.comment')} required multiline autoComplete="off" />
    </FormDialog>
  )
}
