/**
 * FilterSummary: the applied filter in words, one chip per criterion ("Last name contains ou"),
 * between "all of" or "any of"; a filter too complex for chips reads as its text.
 * Props: entityType, filter (the applied text), fieldLabel, enumLabel?, sources? (names ids), onClear().
 */
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { formatDate } from '../../lib/dates'
import { parseQuery } from '../../lib/querylang/api'
import { type FilterRow, treeToRows } from '../../lib/querylang/rows'
import { useListMessage } from './messages'
import type { FieldLabels, ValueSource, ValueSources } from './types'
import { useValueLabels } from './ValueInputs'

interface FilterSummaryProps extends FieldLabels {
  entityType: string
  filter: string
  sources?: ValueSources
  onClear: () => void
}

function CriterionChip({ entityType, row, source, fieldLabel, enumLabel }: { entityType: string; row: FilterRow; source?: ValueSource } & FieldLabels) {
  const { t, i18n } = useTranslation()
  const named = useValueLabels(['lists', entityType, row.field], source, row.values)
  const value = () => {
    switch (row.type) {
      case 'boolean':
        return t(`lists.boolean.${row.value}`)
      case 'date':
        return formatDate(row.value, i18n.language)
      case 'enum':
        return row.values.map((v) => enumLabel?.(row.field, String(v)) ?? String(v)).join(', ')
      case 'id':
      case 'location':
        return row.values.map((id) => named?.find((option) => option.id === id)?.label ?? String(id)).join(', ')
      default:
        return row.value === '' ? t('lists.summary.emptyText') : t('lists.summary.quoted', { text: row.value })
    }
  }
  return <Chip size="small" label={`${fieldLabel(row.field)} ${t(`lists.operators.${row.operator}`)} ${value()}`} />
}

export function FilterSummary({ entityType, filter, sources, fieldLabel, enumLabel, onClear }: FilterSummaryProps) {
  const { t } = useTranslation()
  const message = useListMessage()
  const parsed = useQuery(parseQuery(entityType, filter))
  if (filter === '' || parsed.isPending) return null
  const rows = parsed.data ? treeToRows(parsed.data.filter) : null
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.75 }} aria-label={t('lists.summary.label')} role="group">
      <Typography variant="body2" color="text.secondary" component="span">
        {rows && rows.rows.length > 1 ? t(rows.join === 'and' ? 'lists.summary.all' : 'lists.summary.any') : t('lists.summary.label')}
      </Typography>
      {parsed.isError && <Chip size="small" color="error" variant="outlined" label={t('lists.summary.invalid', { message: message(parsed.error.message) })} />}
      {parsed.data && !rows && <Chip size="small" label={filter} sx={{ fontFamily: 'monospace', maxWidth: '100%' }} />}
      {rows?.rows.map((row, index) => (
        // Rows are rebuilt from the tree at each render: their place is their identity.
        <CriterionChip key={index} entityType={entityType} row={row} source={sources?.[row.field]} fieldLabel={fieldLabel} enumLabel={enumLabel} />
      ))}
      <Button size="small" onClick={onClear}>
        {t('lists.summary.clear')}
      </Button>
    </Box>
  )
}
