/**
 * The value inputs of a criterion, one per field type (used by CriterionRow):
 * - TextValue: free text (string fields; an empty text is a value too, written `\0`);
 * - BooleanValue: true / false;
 * - EnumValue: the enum's values as chips, several may be chosen;
 * - IdValue: an autocomplete over a ValueSource (id and location fields), searched 500 ms after typing
 *   stops; without a source, ids are typed and confirmed with Enter.
 * Each shows `error` (a message key) under itself.
 */
import Check from '@mui/icons-material/Check'
import Autocomplete from '@mui/material/Autocomplete'
import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import FormHelperText from '@mui/material/FormHelperText'
import TextField from '@mui/material/TextField'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ValueId } from '../../lib/querylang/types'
import { useDebouncedValue } from '../../lib/useDebouncedValue'
import { useListMessage } from './messages'
import type { ValueOption, ValueSource } from './types'

interface ValueProps<V> {
  label: string
  value: V
  onChange: (value: V) => void
  /** Message key of the value's problem. */
  error?: string
}

export function TextValue({ label, value, onChange, error }: ValueProps<string>) {
  const message = useListMessage()
  return (
    <TextField
      size="small"
      fullWidth
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error !== undefined}
      helperText={message(error)}
    />
  )
}

export function BooleanValue({ label, value, onChange }: ValueProps<string>) {
  const { t } = useTranslation()
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={value}
      onChange={(_event, next: string | null) => next && onChange(next)}
      aria-label={label}
    >
      <ToggleButton value="true" sx={{ px: 2 }}>
        {t('lists.boolean.true')}
      </ToggleButton>
      <ToggleButton value="false" sx={{ px: 2 }}>
        {t('lists.boolean.false')}
      </ToggleButton>
    </ToggleButtonGroup>
  )
}

interface EnumValueProps extends ValueProps<ValueId[]> {
  options: readonly string[]
  optionLabel: (value: string) => string
}

export function EnumValue({ label, value, onChange, error, options, optionLabel }: EnumValueProps) {
  const message = useListMessage()
  const toggle = (option: string) =>
    onChange(value.includes(option) ? value.filter((v) => v !== option) : [...value, option])
  return (
    <Box role="group" aria-label={label}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75, pt: 0.5 }}>
        {options.map((option) => {
          const chosen = value.includes(option)
          return (
            <Chip
              key={option}
              label={optionLabel(option)}
              icon={chosen ? <Check /> : undefined}
              color={chosen ? 'primary' : 'default'}
              variant={chosen ? 'filled' : 'outlined'}
              aria-pressed={chosen}
              onClick={() => toggle(option)}
            />
          )
        })}
      </Box>
      {error !== undefined && <FormHelperText error>{message(error)}</FormHelperText>}
    </Box>
  )
}

/** Typed ids: digits are numeric ids, anything else a code. */
const typedId = (text: string): ValueId => (/^\d+$/.test(text) ? Number(text) : text)

interface IdValueProps extends ValueProps<ValueId[]> {
  /** Cache key of this field's searches and labels, e.g. ['lists', 'user', 'group']. */
  cacheKey: readonly unknown[]
  source?: ValueSource
}

/** The labels of chosen members, from the source (ids it does not know read as themselves). */
export function useValueLabels(cacheKey: readonly unknown[], source: ValueSource | undefined, ids: ValueId[]) {
  const { data } = useQuery({
    queryKey: [...cacheKey, 'labels', ids],
    queryFn: () => (source ? source.labels(ids) : Promise.resolve([])),
    enabled: source !== undefined && ids.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  })
  return data
}

const labelIn = (options: readonly ValueOption[] | undefined, id: ValueId) => options?.find((option) => option.id === id)?.label

export function IdValue({ label, value, onChange, error, cacheKey, source }: IdValueProps) {
  const { t } = useTranslation()
  const message = useListMessage()
  const [input, setInput] = useState('')
  const text = useDebouncedValue(input.trim())
  // Labels of members picked in this editor, shown before the source names them.
  const [picked, setPicked] = useState<ValueOption[]>([])
  const named = useValueLabels(cacheKey, source, value)
  const found = useQuery({
    queryKey: [...cacheKey, 'search', text],
    queryFn: () => (source ? source.search(text) : Promise.resolve([])),
    enabled: source !== undefined && text !== '',
    staleTime: 60_000,
  })
  // The same array while nothing changes: the autocomplete empties its input when its value changes.
  const chosen = useMemo(
    () => value.map((id) => ({ id, label: labelIn(named, id) ?? labelIn(picked, id) ?? String(id) })),
    [value, named, picked],
  )
  const noOptions = text === '' ? t('lists.values.typeToSearch') : t('lists.values.noOption')
  return (
    <Autocomplete<ValueOption, true, false, boolean>
      multiple
      freeSolo={source === undefined}
      size="small"
      fullWidth
      options={source && text !== '' ? (found.data ?? []) : []}
      value={chosen}
      filterOptions={(options) => options}
      filterSelectedOptions
      inputValue={input}
      onInputChange={(_event, next) => setInput(next)}
      getOptionLabel={(option) => (typeof option === 'string' ? option : option.label)}
      getOptionKey={(option) => (typeof option === 'string' ? option : String(option.id))}
      isOptionEqualToValue={(option, selected) => typeof selected !== 'string' && option.id === selected.id}
      onChange={(_event, next) => {
        const options = next
          .map((item) => (typeof item === 'string' ? { id: typedId(item.trim()), label: item.trim() } : item))
          .filter((option) => option.label !== '')
        setPicked((previous) => [...previous, ...options])
        onChange([...new Set(options.map((option) => option.id))])
      }}
      loading={found.isFetching}
      loadingText={t('common.loading')}
      noOptionsText={noOptions}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder={source ? t('lists.values.search') : t('lists.values.typeIds')}
          error={error !== undefined}
          helperText={message(error)}
        />
      )}
    />
  )
}
