import { zodResolver } from '@hookform/resolvers/zod'
import Box from '@mui/material/Box'
import FormHelperText from '@mui/material/FormHelperText'
import Slider from '@mui/material/Slider'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useId, useState } from 'react'
import { Controller, type ControllerRenderProps, useForm } from 'react-hook-form'
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

const OUT_OF_RANGE = 'valueMustBeBetween'
const MAX_GRADE = 10

const schema = z.object({
  // NaN: what was typed in the field is no grade from 0 to 10.
  grade: z
    .number({ error: OUT_OF_RANGE })
    .min(0, OUT_OF_RANGE)
    .max(MAX_GRADE, OUT_OF_RANGE)
    .nullable()
    .refine((grade) => grade !== null, EMPTY_FIELD),
  comment: text(),
})

const tenths = (value: number) => Math.round(value * 10) / 10

/** The typed text as a grade: null when empty, NaN when it is no number from 0 to 10, else rounded to a tenth. */
function parseGrade(typed: string): number | null {
  const trimmed = typed.trim()
  if (trimmed === '') return null
  const value = Number(trimmed.replace(',', '.'))
  return Number.isFinite(value) && value >= 0 && value <= MAX_GRADE ? tenths(value) : Number.NaN
}

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
 * Grades a module, or changes its grade (spec 2 §5 Module grading): a grade out of 10 to a tenth, shown as
 * not defined until given, and a comment; both are required.
 */
export function GradeDialog({ pathId, version, module, onGraded, onClose }: GradeDialogProps) {
  const { t } = useTranslation()
  const message = useMessage()
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
          <GradeControl
            ref={field.ref}
            name={field.name}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={message(fieldState.error?.message)}
          />
        )}
      />
      <Typography variant="body2" color="text.secondary">
        {t('trainingPath.gradeDialog.threshold', { value: module.module.passThreshold })}
      </Typography>
      <TextInput control={control} name="comment" label={t('trainingPath.gradeDialog.comment')} required multiline autoComplete="off" />
    </FormDialog>
  )
}

/**
 * The grade: a slider that the keyboard moves by whole points (arrows, Page Up and Down; Home and End for 0
 * and 10), and beside it a field that takes tenths, typed with a point or a comma.
 */
function GradeControl({
  ref,
  name,
  value: grade,
  onChange,
  onBlur,
  error,
}: Omit<ControllerRenderProps<GradeInput, 'grade'>, 'disabled'> & { error: string | undefined }) {
  const { t, i18n } = useTranslation()
  const labelId = useId()
  // The text being typed ("7," is no grade yet), until the field is left with a grade or nothing in it.
  const [typed, setTyped] = useState<string | null>(null)
  const known = grade !== null && !Number.isNaN(grade)
  const shown = typed ?? (known ? formatGrade(grade, i18n.language) : '')
  const gradeText = (value: number) => t('trainingPath.outOfTen', { value: formatGrade(value, i18n.language) })
  return (
    <Box sx={{ px: 1 }}>
      <Typography id={labelId} variant="body2" color="text.secondary" component="div">
        {t('trainingPath.gradeDialog.grade')}
      </Typography>
      <Typography variant="h6" component="output" aria-live="polite" aria-labelledby={labelId}>
        {known ? gradeText(grade) : t('trainingPath.notDefined')}
      </Typography>
      <Stack direction="row" spacing={3} sx={{ alignItems: 'center' }}>
        <Slider
          ref={ref}
          name={name}
          // Not defined until given: the thumb rests at 0 without being a grade.
          value={known ? grade : 0}
          onChange={(_event, value) => {
            setTyped(null)
            onChange(tenths(value))
          }}
          onBlur={onBlur}
          min={0}
          max={MAX_GRADE}
          step={1}
          shiftStep={1}
          marks={[0, 5, 10].map((value) => ({ value, label: String(value) }))}
          aria-labelledby={labelId}
          getAriaValueText={(value) => (known ? gradeText(value) : t('trainingPath.notDefined'))}
          color={error ? 'error' : 'primary'}
          sx={{ flex: 1, minWidth: 0 }}
        />
        <TextField
          label={t('trainingPath.gradeDialog.field')}
          value={shown}
          onChange={(event) => {
            setTyped(event.target.value)
            onChange(parseGrade(event.target.value))
          }}
          onBlur={() => {
            if (grade === null || known) setTyped(null)
            onBlur()
          }}
          error={Boolean(error)}
          size="small"
          autoComplete="off"
          slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          sx={{ width: '8rem', flexShrink: 0 }}
        />
      </Stack>
      {error && <FormHelperText error>{error}</FormHelperText>}
    </Box>
  )
}
