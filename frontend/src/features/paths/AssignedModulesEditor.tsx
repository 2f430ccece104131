import Add from '@mui/icons-material/Add'
import ArrowDownward from '@mui/icons-material/ArrowDownward'
import ArrowUpward from '@mui/icons-material/ArrowUpward'
import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import Autocomplete from '@mui/material/Autocomplete'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import FormHelperText from '@mui/material/FormHelperText'
import IconButton from '@mui/material/IconButton'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import type { Dayjs } from 'dayjs'
import { type Ref, useId, useState } from 'react'
import { type Control, Controller, useFieldArray, type UseFormGetValues, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { SearchPicker } from '../../components/people/SearchPicker'
import { useMessage } from '../../lib/messages'
import { useDebouncedValue } from '../../lib/useDebouncedValue'
import { moduleSearchQuery } from './api'
import { DateInput } from '../../components/DateInput'
import { DATES_ERROR, type Named, newModule, pathDatesValid, type PathForm } from './pathForm'

interface AssignedModulesEditorProps {
  control: Control<PathForm>
  getValues: UseFormGetValues<PathForm>
  today: Dayjs
  /** Which modules, in which order, with which dates may not change (can.fields.assignedModules false: the path was accepted). */
  restricted: boolean
  /** The referents may not change (can.fields.referents false). */
  referentsReadOnly?: boolean
  /** The list's own message (no module), a message key. */
  error?: string
}

/** The path's assigned modules (spec 2 §2): add, edit, remove, move up and down; each a module, referents, dates. */
export function AssignedModulesEditor({ control, getValues, today, restricted, referentsReadOnly, error }: AssignedModulesEditorProps) {
  const { t } = useTranslation()
  const message = useMessage()
  const headingId = useId()
  const errorId = useId()
  const { fields, append, remove, move } = useFieldArray({ control, name: 'modules' })
  const [datesError, setDatesError] = useState(false)
  const shown = datesError ? DATES_ERROR : error
  // A module's dates lie within the path's (spec 2 §5): the pickers offer no other day.
  const [pathStart, pathStop] = useWatch({ control, name: ['startDate', 'stopDate'] })
  const minDate = pathStart?.isValid() ? pathStart : undefined
  const maxDate = pathStop?.isValid() ? pathStop : undefined

  const add = () => {
    const form = getValues()
    // Spec 2 §5: adding a module while the path's dates are invalid shows trainingPathDatesError.
    if (!pathDatesValid(form, today)) return setDatesError(true)
    setDatesError(false)
    append(newModule(form), { shouldFocus: false })
  }

  return (
    <Box component="section" aria-labelledby={headingId}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1, gap: 1, flexWrap: 'wrap' }}>
        <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t('trainingPaths.form.modules')}
        </Typography>
        {!restricted && (
          <Button variant="outlined" startIcon={<Add />} onClick={add} aria-describedby={shown ? errorId : undefined}>
            {t('trainingPaths.form.addModule')}
          </Button>
        )}
      </Stack>
      {fields.length === 0 && (
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {t('trainingPaths.form.noModule')}
        </Typography>
      )}
      <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {fields.map((field, index) => (
          <Paper component="li" variant="outlined" key={field.id} sx={{ p: 2 }} aria-label={t('trainingPaths.form.moduleAt', { position: index + 1 })}>
            <Stack direction="row" sx={{ alignItems: 'center', mb: 1.5, gap: 1 }}>
              <Typography variant="subtitle2" component="h3" sx={{ flexGrow: 1 }}>
                {t('trainingPaths.form.moduleAt', { position: index + 1 })}
              </Typography>
              {!restricted && (
                <>
                  <IconButton size="small" disabled={index === 0} onClick={() => move(index, index - 1)} aria-label={t('trainingPaths.form.moveUp', { position: index + 1 })}>
                    <ArrowUpward fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    disabled={index === fields.length - 1}
                    onClick={() => move(index, index + 1)}
                    aria-label={t('trainingPaths.form.moveDown', { position: index + 1 })}
                  >
                    <ArrowDownward fontSize="small" />
                  </IconButton>
                  <IconButton size="small" onClick={() => remove(index)} aria-label={t('trainingPaths.form.remove', { position: index + 1 })}>
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </>
              )}
            </Stack>
            <Stack spacing={1}>
              <Controller
                control={control}
                name={`modules.${index}.module`}
                render={({ field: picked, fieldState }) => (
                  <ModulePicker
                    value={picked.value}
                    onChange={picked.onChange}
                    onBlur={picked.onBlur}
                    inputRef={picked.ref}
                    readOnly={restricted}
                    error={message(fieldState.error?.message)}
                  />
                )}
              />
              <Controller
                control={control}
                name={`modules.${index}.referents`}
                render={({ field: chosen, fieldState }) => (
                  <SearchPicker
                    of="people"
                    multiple
                    required
                    label={t('trainingPaths.form.referents')}
                    readOnly={referentsReadOnly}
                    value={chosen.value}
                    onChange={chosen.onChange}
                    onBlur={chosen.onBlur}
                    inputRef={chosen.ref}
                    error={fieldState.error !== undefined}
                    helperText={message(fieldState.error?.message) ?? ' '}
                  />
                )}
              />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 2 }}>
                <DateInput
                  control={control}
                  name={`modules.${index}.startDate`}
                  label={t('trainingPaths.form.moduleStartDate')}
                  readOnly={restricted}
                  readOnlyText={t('trainingPaths.form.readOnly')}
                  minDate={minDate}
                  maxDate={maxDate}
                />
                <DateInput
                  control={control}
                  name={`modules.${index}.stopDate`}
                  label={t('trainingPaths.form.moduleStopDate')}
                  readOnly={restricted}
                  readOnlyText={t('trainingPaths.form.readOnly')}
                  minDate={minDate}
                  maxDate={maxDate}
                />
              </Stack>
            </Stack>
          </Paper>
        ))}
      </Stack>
      {shown && (
        <FormHelperText id={errorId} error role="alert" sx={{ mt: 1 }}>
          {message(shown)}
        </FormHelperText>
      )}
    </Box>
  )
}

interface ModulePickerProps {
  value: Named | null
  onChange: (value: Named | null) => void
  onBlur: () => void
  inputRef: Ref<HTMLInputElement>
  readOnly: boolean
  error?: string
}

/** One enabled training module, found by part of its name (GET /training/module/search?enabled=true), 500 ms after typing stops. */
function ModulePicker({ value, onChange, onBlur, inputRef, readOnly, error }: ModulePickerProps) {
  const { t } = useTranslation()
  const [input, setInput] = useState('')
  const [open, setOpen] = useState(false)
  const typed = value?.name === input ? '' : input.trim()
  const searched = useDebouncedValue(typed)
  const found = useQuery({ ...moduleSearchQuery(searched), enabled: open && !readOnly })
  const chosen = value ? [value] : []
  const options: Named[] = [...chosen, ...(typed !== searched ? [] : (found.data ?? [])).map(({ id, name }) => ({ id, name })).filter((option) => option.id !== value?.id)]
  return (
    <Autocomplete
      options={options}
      value={value}
      onChange={(_event, next) => onChange(next)}
      inputValue={input}
      onInputChange={(_event, next) => setInput(next)}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      filterOptions={(all) => all}
      getOptionLabel={(option) => option.name}
      isOptionEqualToValue={(option, current) => option.id === current.id}
      readOnly={readOnly}
      loading={typed !== searched || found.isFetching}
      loadingText={t('common.loading')}
      noOptionsText={t('people.picker.noOption')}
      onBlur={onBlur}
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={inputRef}
          label={t('trainingPaths.form.module')}
          required={!readOnly}
          error={error !== undefined}
          helperText={error ?? (readOnly ? t('trainingPaths.form.readOnly') : ' ')}
        />
      )}
    />
  )
}
