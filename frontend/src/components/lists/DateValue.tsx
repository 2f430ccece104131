/**
 * The value input of a date criterion: a date picker written YYYY-MM-DD in English and DD/MM/YYYY in
 * French, whose value is always sent as YYYY-MM-DD. Props: label, value (YYYY-MM-DD or ""),
 * onChange(value, invalid) (invalid while the typed text is not a date), error (a message key).
 */
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs'
import { DatePicker } from '@mui/x-date-pickers/DatePicker'
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider'
import { enUS, frFR } from '@mui/x-date-pickers/locales'
import dayjs, { type Dayjs } from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { datePattern } from '../../lib/dates'
import { useListMessage } from './messages'

/** The pickers' own texts (placeholders such as JJ/MM/AAAA, button labels) in the interface language. */
const PICKER_TEXTS = { fr: frFR, en: enUS }

/** The query language's calendar dates. */
const QUERY_DATE_FORMAT = 'YYYY-MM-DD'

interface DateValueProps {
  label: string
  value: string
  onChange: (value: string, invalid: boolean) => void
  error?: string
}

export function DateValue({ label, value, onChange, error }: DateValueProps) {
  const { i18n } = useTranslation()
  const message = useListMessage()
  // The picker keeps a half-typed date as an invalid value: held here, not in the filter.
  const [date, setDate] = useState<Dayjs | null>(() => (value ? dayjs(value) : null))
  const change = (next: Dayjs | null) => {
    setDate(next)
    if (next === null) onChange('', false)
    else if (next.isValid()) onChange(next.format(QUERY_DATE_FORMAT), false)
    else onChange('', true)
  }
  return (
    <LocalizationProvider
      dateAdapter={AdapterDayjs}
      adapterLocale={i18n.language}
      localeText={PICKER_TEXTS[i18n.language === 'en' ? 'en' : 'fr'].components.MuiLocalizationProvider.defaultProps.localeText}
    >
      <DatePicker
        label={label}
        value={date}
        onChange={change}
        format={datePattern(i18n.language)}
        slotProps={{
          textField: { size: 'small', fullWidth: true, error: error !== undefined, helperText: message(error) },
        }}
      />
    </LocalizationProvider>
  )
}
