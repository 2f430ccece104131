import Autocomplete from '@mui/material/Autocomplete'
import TextField from '@mui/material/TextField'
import { useQuery } from '@tanstack/react-query'
import { type Ref, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useDebouncedValue } from '../../lib/useDebouncedValue'
import { groupSearchQuery, peopleSearchQuery } from './api'

/** A user or a group, as the pickers show and hold it. */
export interface Named {
  id: number
  name: string
}

interface PickerBase {
  /** Users (GET /user/search) or groups (GET /user/searchGroup). */
  of: 'people' | 'groups'
  label: string
  required?: boolean
  readOnly?: boolean
  /** The message shown under the field (an error when `error` is set). */
  helperText?: string
  error?: boolean
  inputRef?: Ref<HTMLInputElement>
  onBlur?: () => void
}

interface SinglePicker extends PickerBase {
  multiple?: false
  value: Named | null
  onChange: (value: Named | null) => void
}

interface MultiplePicker extends PickerBase {
  multiple: true
  value: Named[]
  onChange: (value: Named[]) => void
}

/**
 * A people or groups picker (mediation and training path forms): an autocomplete over the server's user or group search, asked 500 ms after typing stops (spec 1 §9);
 * the server decides what matches, so the options are not filtered again here.
 */
export function SearchPicker(props: SinglePicker | MultiplePicker) {
  const { of, label, required, readOnly, helperText, error, inputRef, onBlur } = props
  const { t } = useTranslation()
  const [input, setInput] = useState('')
  // A single picker shows its value's name in its input: that is no search.
  const typed = !props.multiple && props.value?.name === input ? '' : input.trim()
  const searched = useDebouncedValue(typed)
  const people = useQuery({ ...peopleSearchQuery(searched), enabled: of === 'people' && searched !== '' && !readOnly })
  const groups = useQuery({ ...groupSearchQuery(searched), enabled: of === 'groups' && searched !== '' && !readOnly })
  const found: Named[] = (of === 'people' ? people.data : groups.data) ?? []
  // The chosen values stay among the options, which the autocomplete needs to show them.
  const chosen = props.multiple ? props.value : props.value ? [props.value] : []
  // Only the answer to what is typed now: an earlier word's would offer what no longer matches.
  const options = [...chosen, ...(typed === '' || typed !== searched ? [] : found).filter((option) => !chosen.some((value) => value.id === option.id))]
  const waiting = typed !== '' && (typed !== searched || people.isFetching || groups.isFetching)

  const common = {
    options,
    filterOptions: (options: Named[]) => options,
    getOptionLabel: (option: Named) => option.name,
    isOptionEqualToValue: (option: Named, value: Named) => option.id === value.id,
    inputValue: input,
    onInputChange: (_event: unknown, value: string, reason: string) => {
      // Choosing a value of a multiple picker would otherwise leave the search text behind.
      if (reason !== 'reset' || !props.multiple) setInput(value)
      else setInput('')
    },
    onBlur,
    readOnly,
    loading: waiting,
    loadingText: t('common.loading'),
    noOptionsText: typed === '' ? t('people.picker.typeToSearch') : t('people.picker.noOption'),
    renderInput: (params: object) => (
      <TextField {...params} inputRef={inputRef} label={label} required={required} error={error} helperText={helperText ?? ' '} />
    ),
  }
  if (props.multiple) {
    return <Autocomplete {...common} multiple filterSelectedOptions value={props.value} onChange={(_event, chosen) => props.onChange(chosen)} />
  }
  return <Autocomplete {...common} value={props.value} onChange={(_event, chosen) => props.onChange(chosen)} />
}
