import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs'
import { DatePicker } from '@mui/x-date-pickers/DatePicker'
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider'
import { enUS, frFR } from '@mui/x-date-pickers/locales'
import dayjs, { type Dayjs } from 'dayjs'
import type { ReactNode } from 'react'
import { type Control, Controller, type FieldPath, type FieldPathByValue, type FieldValues } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { datePattern } from '../lib/dates'
import { useMessage } from '../lib/messages'

/** The last day a form's date may take. */
export const MAX_DATE = dayjs('2099-12-31')

/** The pickers' own texts (placeholders such as JJ/MM/AAAA, button labels) in the interface language. */
const PICKER_TEXTS = { fr: frFR, en: enUS }

/** The date pickers' language, around the whole form. */
export function DatesLocalization({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation()
  return (
    <LocalizationProvider
      dateAdapter={AdapterDayjs}
      adapterLocale={i18n.language}
      localeText={PICKER_TEXTS[i18n.language === 'en' ? 'en' : 'fr'].components.MuiLocalizationProvider.defaultProps.localeText}
    >
      {children}
    </LocalizationProvider>
  )
}

interface DateInputProps<Form extends FieldValues> {
  control: Control<Form>
  name: FieldPathByValue<Form, Dayjs | null>
  label: string
  readOnly?: boolean
  /** Said under a read-only day instead of an error. */
  readOnlyText?: string
  minDate?: Dayjs
  maxDate?: Dayjs
  /** The fields checked again when this day changes (a period's other end). */
  deps?: FieldPath<Form>[]
}

/** A day of a form (YYYY-MM-DD in English, DD/MM/YYYY in French), its error under it. */
export function DateInput<Form extends FieldValues>({ control, name, label, readOnly, readOnlyText, minDate, maxDate, deps }: DateInputProps<Form>) {
  const { i18n } = useTranslation()
  const message = useMessage()
  return (
    <Controller
      control={control}
      name={name}
      rules={deps ? { deps } : undefined}
      render={({ field, fieldState }) => (
        <DatePicker
          label={label}
          value={field.value}
          onChange={field.onChange}
          inputRef={field.ref}
          format={datePattern(i18n.language)}
          minDate={minDate}
          maxDate={maxDate ?? MAX_DATE}
          readOnly={readOnly}
          slotProps={{
            textField: {
              fullWidth: true,
              required: !readOnly,
              onBlur: field.onBlur,
              error: fieldState.error !== undefined,
              helperText: message(fieldState.error?.message) ?? (readOnly ? readOnlyText : ' ') ?? ' ',
            },
          }}
        />
      )}
    />
  )
}
