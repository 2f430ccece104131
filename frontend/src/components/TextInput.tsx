import TextField from '@mui/material/TextField'
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form'
import { useMessage } from '../lib/messages'

interface TextInputProps<T extends FieldValues> {
  control: Control<T>
  name: Path<T>
  label: string
  type?: 'text' | 'password' | 'email'
  required?: boolean
  autoFocus?: boolean
  autoComplete?: string
  /** False when the form shows one message for all its fields. */
  showMessage?: boolean
  multiline?: boolean
  /** Shown, and not editable, when the user may not change the field now. */
  readOnly?: boolean
  /** Why it is read-only, shown under it when it has no error. */
  readOnlyHelp?: string
}

/** A text field of a react-hook-form form, showing its error as a translated message. */
export function TextInput<T extends FieldValues>({
  control,
  name,
  label,
  type = 'text',
  showMessage = true,
  multiline,
  readOnly,
  readOnlyHelp,
  required,
  ...rest
}: TextInputProps<T>) {
  const message = useMessage()
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: { ref, ...field }, fieldState }) => (
        <TextField
          {...field}
          {...rest}
          // Nothing is asked of the user in a field they cannot change.
          required={required && !readOnly}
          inputRef={ref}
          type={type}
          label={label}
          multiline={multiline}
          minRows={multiline ? 3 : undefined}
          error={fieldState.error !== undefined}
          helperText={showMessage ? (message(fieldState.error?.message) ?? (readOnly ? readOnlyHelp : ' ')) : undefined}
          slotProps={readOnly ? { input: { readOnly } } : undefined}
          fullWidth
        />
      )}
    />
  )
}
