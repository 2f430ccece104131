import Checkbox from '@mui/material/Checkbox'
import FormControl from '@mui/material/FormControl'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormGroup from '@mui/material/FormGroup'
import FormHelperText from '@mui/material/FormHelperText'
import FormLabel from '@mui/material/FormLabel'
import { type Ref, useId } from 'react'

export interface Choice {
  key: string
  label: string
  checked: boolean
  disabled?: boolean
  onChange: (checked: boolean) => void
}

/** A group of checkboxes under its legend, in columns when there is room; its error (or help) under it. */
export function Choices({ legend, choices, error, help, columns = 2, inputRef }: { legend: string; choices: Choice[]; error?: string; help?: string; columns?: number; inputRef?: Ref<HTMLInputElement> }) {
  const helpId = useId()
  const message = error ?? help
  return (
    <FormControl component="fieldset" error={error !== undefined} sx={{ minWidth: 0 }}>
      <FormLabel component="legend" sx={{ mb: 0.5 }}>
        {legend}
      </FormLabel>
      <FormGroup
        aria-describedby={message ? helpId : undefined}
        sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: `repeat(${columns}, minmax(0, 1fr))` }, columnGap: 2 }}
      >
        {choices.map((choice, index) => (
          <FormControlLabel
            key={choice.key}
            disabled={choice.disabled}
            control={<Checkbox size="small" checked={choice.checked} slotProps={{ input: { ref: index === 0 ? inputRef : undefined } }} onChange={(event) => choice.onChange(event.target.checked)} />}
            label={choice.label}
          />
        ))}
      </FormGroup>
      {message && <FormHelperText id={helpId}>{message}</FormHelperText>}
    </FormControl>
  )
}

/** The choices of a list of values, each ticked when the list holds it. */
export function valueChoices<T extends string>(all: readonly T[], chosen: T[], label: (value: T) => string, onChange: (chosen: T[]) => void): Choice[] {
  return all.map((value) => ({
    key: value,
    label: label(value),
    checked: chosen.includes(value),
    onChange: (checked) => onChange(checked ? all.filter((item) => item === value || chosen.includes(item)) : chosen.filter((item) => item !== value)),
  }))
}
