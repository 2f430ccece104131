import Box from '@mui/material/Box'
import Slider from '@mui/material/Slider'
import Typography from '@mui/material/Typography'
import { useId } from 'react'
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form'

/** The greatest pass threshold: grades and thresholds are out of 10 (spec 2 §9). */
export const MAX_THRESHOLD = 10

interface ThresholdSliderProps<T extends FieldValues> {
  control: Control<T>
  name: Path<T>
  /** The label above the slider, with the value chosen ("Pass threshold: 7 / 10"). */
  label: (value: number) => string
  /** How a value reads ("7 / 10"), for the value label and screen readers. */
  valueText: (value: number) => string
  disabled?: boolean
}

/** A pass threshold, 0 to 10 in steps of 1 (spec 2 §5): the module and training path forms. */
export function ThresholdSlider<T extends FieldValues>({ control, name, label, valueText, disabled }: ThresholdSliderProps<T>) {
  const labelId = useId()
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: { ref, value, onChange, onBlur } }) => (
        <Box sx={{ pb: 1 }}>
          <Typography id={labelId} gutterBottom>
            {label(value as number)}
          </Typography>
          <Slider
            ref={ref}
            value={value as number}
            onChange={(_event, next) => onChange(next as number)}
            onBlur={onBlur}
            min={0}
            max={MAX_THRESHOLD}
            step={1}
            marks
            disabled={disabled}
            valueLabelDisplay="auto"
            valueLabelFormat={valueText}
            getAriaValueText={valueText}
            slotProps={{ input: { 'aria-labelledby': labelId } }}
            sx={{ maxWidth: 420, mx: 1 }}
          />
        </Box>
      )}
    />
  )
}
