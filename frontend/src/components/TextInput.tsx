import TextField from '@mui/material/TextField'
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form'
import { useMessage } from '../lib/messages'

interface TextInputProps<T extends FieldValues> {
  control: Control<T>
  name: Path<T>
  label: string
  type?: 'text' | 'password'
  required?: boolean
  autoFocus?: boolean
  autoComplete?: string
  /** False when the form shows one message for all its fields. */
  showMessage?: boolean
}

/** A text field of a react-hook-form form, showing its error as a translated message. */
export function TextInput<T extends FieldValues>({
  control,
  name,
  label,
  type = 'text',
  showMessage = true,
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
          inputRef={ref}
          type={type}
          label={label}
          error={fieldState.error !== undefined}
          helperText={showMessage ? (message(fieldState.error?.message) ?? ' ') : undefined}
          fullWidth
        />
      )}
    />
  )
}
