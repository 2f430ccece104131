import Autocomplete, { type AutocompleteRenderGroupParams, autocompleteClasses } from '@mui/material/Autocomplete'
import ListSubheader from '@mui/material/ListSubheader'
import TextField from '@mui/material/TextField'
import { useQueries, useQuery } from '@tanstack/react-query'
import { type ReactNode, type Ref, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { cartographiesQuery, functionsQuery } from '../../api/mapping'
import { useDebouncedValue } from '../../lib/useDebouncedValue'
import { moduleSearchQuery } from './api'
import { functionsOf, type Named, type NamedFunction } from './qualificationForm'

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

/**
 * A group of options as ARIA has it (listbox > group > option), named by its heading. MUI's own
 * renders the group as a list item holding a plain list of options, which a listbox may not contain
 * (axe: aria-required-children, aria-required-parent, list, listitem).
 */
function OptionGroup({ heading, children }: { heading: string; children?: ReactNode }) {
  const headingId = useId()
  return (
    <li role="presentation">
      <ListSubheader id={headingId} component="div" className={autocompleteClasses.groupLabel}>
        {heading}
      </ListSubheader>
      <ul role="group" aria-labelledby={headingId} className={autocompleteClasses.groupUl}>
        {children}
      </ul>
    </li>
  )
}

const renderGroup = (params: AutocompleteRenderGroupParams) => (
  <OptionGroup key={params.key} heading={params.group}>
    {params.children}
  </OptionGroup>
)

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
      renderGroup={renderGroup}
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

interface FunctionsPickerProps extends Omit<PickerProps, 'value' | 'onChange'> {
  value: NamedFunction[]
  onChange: (value: NamedFunction[]) => void
  /** The qualification's cartographies: the functions are chosen among theirs. */
  cartographies: Named[]
  readOnly?: boolean
}

/**
 * The functions the qualification opens, chosen among the functions of its cartographies (GET
 * /cartography/{id}/functions of each: those the user sees), grouped by cartography as the map tree
 * shows them. A cartography taken out of the form takes its functions with it.
 */
export function FunctionsPicker({ label, value, onChange, onBlur, inputRef, helperText, error, cartographies, readOnly }: FunctionsPickerProps) {
  const { t } = useTranslation()
  const answers = useQueries({ queries: cartographies.map((cartography) => functionsQuery(cartography.id)) })
  const options: NamedFunction[] = cartographies.flatMap((cartography, index) =>
    [...(answers[index]?.data ?? [])]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(({ id, name }) => ({ id, name, cartographyId: cartography.id })),
  )
  const cartographyName = new Map(cartographies.map((cartography) => [cartography.id, cartography.name]))
  const chosen = functionsOf(value, cartographies)
  const none = cartographies.length === 0
  return (
    <Autocomplete
      multiple
      options={options}
      value={chosen}
      onChange={(_event, next) => onChange(next)}
      groupBy={(option) => cartographyName.get(option.cartographyId) ?? ''}
      renderGroup={renderGroup}
      getOptionLabel={(option) => option.name}
      isOptionEqualToValue={(option, chosenOne) => option.id === chosenOne.id}
      loading={answers.some((answer) => answer.isLoading)}
      loadingText={t('common.loading')}
      noOptionsText={t('people.picker.noOption')}
      disabled={none}
      readOnly={readOnly}
      onBlur={onBlur}
      renderInput={(params) => (
        <TextField {...params} inputRef={inputRef} label={label} error={error} helperText={(none && !error ? t('qualifications.form.functionsNeedCartography') : helperText) ?? ' '} />
      )}
    />
  )
}
