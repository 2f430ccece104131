/**
 * ReferenceAutocomplete: chooses a module or path reference (spec 2 §2 module and path forms) among the
 * enabled references whose code, label or description contains what is typed, asked from
 * GET /training/references/{type}/search 500 ms after typing stops (spec 2 §9), 30 at most.
 *
 * Props:
 * - type: 'module' or 'path'.
 * - value: the chosen reference's code, or null; onChange(code | null).
 * - label?: the field's label ('Reference' by default).
 * - error?: a message key (or text) shown under the field as an error, e.g. a server's `invalidValue`.
 * - required?, readOnly?, inputRef?, onBlur?: as for any field of a react-hook-form form.
 *
 * Options read 'code — label'. A value chosen before (a module's current reference, which may be
 * disabled since) is shown the same way, read from GET /training/references/{type}/{code}.
 */
import Autocomplete from '@mui/material/Autocomplete'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { type Ref, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import { useMessage } from '../../lib/messages'
import { useDebouncedValue } from '../../lib/useDebouncedValue'
import { type ReferenceCard, type ReferenceType, searchReferences } from './api'

export interface ReferenceAutocompleteProps {
  type: ReferenceType
  value: string | null
  onChange: (code: string | null) => void
  label?: string
  error?: string
  required?: boolean
  readOnly?: boolean
  inputRef?: Ref<HTMLInputElement>
  onBlur?: () => void
}

type Option = Pick<ReferenceCard, 'code' | 'label'> & Partial<Pick<ReferenceCard, 'description'>>

export const referenceText = (option: Option) => (option.label ? `${option.code} — ${option.label}` : option.code)

export function ReferenceAutocomplete({ type, value, onChange, label, error, required, readOnly, inputRef, onBlur }: ReferenceAutocompleteProps) {
  const { t } = useTranslation()
  const message = useMessage()
  const [open, setOpen] = useState(false)
  const [input, setInput] = useState('')
  const [picked, setPicked] = useState<Option | null>(null)
  const current: Option | null = value === null ? null : picked?.code === value ? picked : { code: value, label: '' }
  // The input shows the value's text: that is no search.
  const typed = current !== null && input === referenceText(current) ? '' : input.trim()
  const searched = useDebouncedValue(typed)
  const found = useQuery({
    queryKey: queryKeys.references.search(type, searched),
    queryFn: () => searchReferences(type, searched),
    enabled: open && !readOnly,
    staleTime: 30_000,
  })
  const known = useQuery({
    queryKey: queryKeys.references.reference(type, value ?? ''),
    queryFn: () => data(api.GET('/backend/api/v2/training/references/{type}/{code}', { params: { path: { type, code: value ?? '' } } })),
    enabled: value !== null && picked?.code !== value,
    meta: { handledStatuses: [403, 404] },
    retry: false,
  })
  const shown: Option | null = current && !current.label && known.data?.code === value ? known.data : current
  const answered = typed === searched ? (found.data ?? []) : []
  const options: Option[] = [...(shown ? [shown] : []), ...answered.filter((option) => option.code !== shown?.code)]
  const waiting = open && (typed !== searched || found.isFetching)

  return (
    <Autocomplete<Option>
      value={shown}
      options={options}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      filterOptions={(all) => all}
      getOptionLabel={referenceText}
      isOptionEqualToValue={(option, chosen) => option.code === chosen.code}
      inputValue={input}
      onInputChange={(_event, next) => setInput(next)}
      onChange={(_event, chosen) => {
        setPicked(chosen)
        onChange(chosen?.code ?? null)
      }}
      onBlur={onBlur}
      readOnly={readOnly}
      loading={waiting}
      loadingText={t('common.loading')}
      noOptionsText={t('references.autocomplete.noOption')}
      renderOption={({ key, ...props }, option) => (
        <li key={key} {...props}>
          <span>
            {referenceText(option)}
            {option.description && (
              <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
                {option.description.split('\n')[0]}
              </Typography>
            )}
          </span>
        </li>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={inputRef}
          label={label ?? t('references.autocomplete.label')}
          required={required}
          error={error !== undefined}
          helperText={message(error) ?? ' '}
        />
      )}
    />
  )
}
