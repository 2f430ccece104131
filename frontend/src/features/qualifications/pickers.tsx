import Autocomplete from '@mui/material/Autocomplete'
import TextField from '@mui/material/TextField'
import { useQuery } from '@tanstack/react-query'
import { type Ref, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { cartographiesQuery } from '../../api/mapping'
import { useDebouncedValue } from '../../lib/useDebouncedValue'
import { moduleSearchQuery } from './api'
import type { Named } from './qualificationForm'

interface PickerProps {
  label: string
  value: Named[]
  onChange: (value: Named[]) => void
  onBlur: () => void
  inputRef: Ref<HTMLInputElement>
  required?: boolean
  /** The message under the field; shown as an error when `error` is set. */
  helperText?: string
  error?: boolean
}

const sameId = (option: Named, value: Named) => option.id === value.id

/** Cartographies the user may see, chosen among all of them (GET /cartography), grouped by site. */
export function CartographiesPicker({ label, value, onChange, onBlur, inputRef, required, helperText, error }: PickerProps) {
  const { t } = useTranslation()
  const { data: cartographies, isLoading } = useQuery(cartographiesQuery)
  const options = (cartographies ?? [])
    .map((cartography) => ({ id: cartography.id, name: cartography.name, site: cartography.site.name }))
    .sort((a, b) => a.site.localeCompare(b.site) || a.name.localeCompare(b.name))
  const siteOf = new Map(options.map((option) => [option.id, option.site]))
  return (
    <Autocomplete
      multiple
      options={options as Named[]}
      value={value}
      onChange={(_event, next) => onChange(next.map(({ id, name }) => ({ id, name })))}
      groupBy={(option) => siteOf.get(option.id) ?? ''}
      getOptionLabel={(option) => option.name}
      isOptionEqualToValue={sameId}
      loading={isLoading}
      loadingText={t('common.loading')}
      noOptionsText={t('people.picker.noOption')}
      onBlur={onBlur}
      renderInput={(params) => <TextField {...params} inputRef={inputRef} label={label} required={required} error={error} helperText={helperText ?? ' '} />}
    />
  )
}

/** Training modules, found by part of their name (GET /training/module/search) 500 ms after typing stops. */
export function ModulesPicker({ label, value, onChange, onBlur, inputRef, required, helperText, error }: PickerProps) {
  const { t } = useTranslation()
  const [input, setInput] = useState('')
  const [open, setOpen] = useState(false)
  const typed = input.trim()
  const searched = useDebouncedValue(typed)
  const found = useQuery({ ...moduleSearchQuery(searched), enabled: open })
  const options: Named[] = [
    ...value,
    ...(typed !== searched ? [] : (found.data ?? [])).map(({ id, name }) => ({ id, name })).filter((option) => !value.some((chosen) => chosen.id === option.id)),
  ]
  return (
    <Autocomplete
      multiple
      options={options}
      value={value}
      onChange={(_event, next) => onChange(next)}
      inputValue={input}
      onInputChange={(_event, next, reason) => setInput(reason === 'reset' ? '' : next)}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      filterOptions={(all) => all}
      filterSelectedOptions
      getOptionLabel={(option) => option.name}
      isOptionEqualToValue={sameId}
      loading={typed !== searched || found.isFetching}
      loadingText={t('common.loading')}
      noOptionsText={t('people.picker.noOption')}
      onBlur={onBlur}
      renderInput={(params) => <TextField {...params} inputRef={inputRef} label={label} required={required} error={error} helperText={helperText ?? ' '} />}
    />
  )
}
