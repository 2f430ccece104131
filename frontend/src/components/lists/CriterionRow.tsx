/**
 * One criterion of the filter editor: field picker, the operators of the field's type, and the value
 * input of that type (text, date picker, true/false, enum chips, id or location autocomplete).
 * Props: row, fields (the entity's filterable fields), errors (message keys by input), labels,
 * source (the ValueSource of an id or location field), cacheKey (prefix of its searches),
 * onChange(row), onRemove().
 */
import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import MenuItem from '@mui/material/MenuItem'
import TextField from '@mui/material/TextField'
import Tooltip from '@mui/material/Tooltip'
import { useTranslation } from 'react-i18next'
import { type FilterRow, type RowErrors, withField } from '../../lib/querylang/rows'
import type { QueryField } from '../../lib/querylang/types'
import { DateValue } from './DateValue'
import { useListMessage } from './messages'
import type { FieldLabels, ValueSource } from './types'
import { BooleanValue, EnumValue, IdValue, TextValue } from './ValueInputs'

interface CriterionRowProps extends FieldLabels {
  row: FilterRow
  /** Its position, from 1, for the labels read by assistive technologies. */
  number: number
  fields: readonly QueryField[]
  errors?: RowErrors
  source?: ValueSource
  cacheKey: readonly unknown[]
  onChange: (row: FilterRow) => void
  onRemove: () => void
}

export function CriterionRow({ row, number, fields, errors, source, cacheKey, fieldLabel, enumLabel, onChange, onRemove }: CriterionRowProps) {
  const { t } = useTranslation()
  const message = useListMessage()
  const field = fields.find((f) => f.name === row.field)
  const valueLabel = t('lists.editor.value')
  const value = () => {
    switch (row.type) {
      case 'date':
        return (
          <DateValue
            label={valueLabel}
            value={row.value}
            error={errors?.value}
            onChange={(next, invalid) => onChange({ ...row, value: next, invalid })}
          />
        )
      case 'boolean':
        return <BooleanValue label={valueLabel} value={row.value} onChange={(next) => onChange({ ...row, value: next })} />
      case 'enum':
        return (
          <EnumValue
            label={valueLabel}
            value={row.values}
            error={errors?.value}
            options={field?.values ?? []}
            optionLabel={(option) => enumLabel?.(row.field, option) ?? option}
            onChange={(values) => onChange({ ...row, values })}
          />
        )
      case 'id':
      case 'location':
        return (
          <IdValue
            label={valueLabel}
            value={row.values}
            error={errors?.value}
            cacheKey={[...cacheKey, row.field]}
            source={source}
            onChange={(values) => onChange({ ...row, values })}
          />
        )
      default:
        return <TextValue label={valueLabel} value={row.value} error={errors?.value} onChange={(next) => onChange({ ...row, value: next })} />
    }
  }
  return (
    <Box
      role="group"
      aria-label={t('lists.editor.criterion', { number })}
      sx={{
        display: 'grid',
        gap: 1.5,
        alignItems: 'start',
        gridTemplateColumns: { xs: '1fr auto', md: 'minmax(160px, 220px) minmax(150px, 200px) 1fr auto' },
      }}
    >
      <TextField
        select
        size="small"
        label={t('lists.editor.field')}
        value={field ? row.field : ''}
        error={errors?.field !== undefined}
        helperText={message(errors?.field)}
        onChange={(event) => {
          const next = fields.find((f) => f.name === event.target.value)
          if (next) onChange(withField(row, next))
        }}
        sx={{ gridColumn: '1', gridRow: '1' }}
      >
        {fields.map((f) => (
          <MenuItem key={f.name} value={f.name}>
            {fieldLabel(f.name)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('lists.editor.operator')}
        value={field?.operators.includes(row.operator) ? row.operator : ''}
        error={errors?.operator !== undefined}
        helperText={message(errors?.operator)}
        onChange={(event) => onChange({ ...row, operator: event.target.value })}
        sx={{ gridColumn: { xs: '1 / 3', md: '2' }, gridRow: { xs: '2', md: '1' } }}
      >
        {(field?.operators ?? []).map((operator) => (
          <MenuItem key={operator} value={operator}>
            {t(`lists.operators.${operator}`)}
          </MenuItem>
        ))}
      </TextField>
      <Box sx={{ gridColumn: { xs: '1 / 3', md: '3' }, gridRow: { xs: '3', md: '1' }, minWidth: 0 }}>{value()}</Box>
      <Tooltip title={t('lists.editor.remove')}>
        <IconButton
          aria-label={t('lists.editor.removeCriterion', { number })}
          onClick={onRemove}
          sx={{ gridColumn: { xs: '2', md: '4' }, gridRow: '1', justifySelf: 'end' }}
        >
          <DeleteOutline fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  )
}
