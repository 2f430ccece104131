/**
 * SortControl: the sort keys of a list, each ascending or descending, several in order of priority.
 *
 * Props:
 * - entityType: the query-language entity type; sortable fields and the default order come from
 *   GET /querylang/{entityType}/fields, the keys of `sort` from the server's parser.
 * - sort: the applied sort text ("-updated_date,name"); "" is the entity type's default order.
 * - fieldLabel(field): how a field reads.
 * - onChange(sort): called with the new sort text.
 *
 * A key is a chip: clicking it reverses its direction, its cross removes it; "+" adds a sortable
 * field. With no key, the default order is shown. A sort the server refuses is shown with its message
 * and a way back to the default order.
 */
import Add from '@mui/icons-material/Add'
import ArrowDownward from '@mui/icons-material/ArrowDownward'
import ArrowUpward from '@mui/icons-material/ArrowUpward'
import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import IconButton from '@mui/material/IconButton'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { fieldsQuery, parseQuery } from '../../lib/querylang/api'
import { queryTextError } from '../../lib/querylang/errors'
import { printSort } from '../../lib/querylang/printer'
import type { SortKey } from '../../lib/querylang/types'
import { useListMessage } from './messages'

export interface SortControlProps {
  entityType: string
  sort: string
  fieldLabel: (field: string) => string
  onChange: (sort: string) => void
}

export function SortControl({ entityType, sort, fieldLabel, onChange }: SortControlProps) {
  const { t } = useTranslation()
  const message = useListMessage()
  const [menu, setMenu] = useState<HTMLElement | null>(null)
  const fields = useQuery(fieldsQuery(entityType))
  const parsed = useQuery(parseQuery(entityType, '', sort))
  const keys = parsed.data?.sort ?? []
  const sortable = (fields.data?.fields ?? []).filter((field) => field.sortable && !keys.some((key) => key.field === field.name))
  const change = (next: SortKey[]) => onChange(printSort(next))
  const error = queryTextError(parsed.error)

  const arrow = (key: SortKey) => (key.descending ? <ArrowDownward /> : <ArrowUpward />)
  const direction = (key: SortKey) => t(key.descending ? 'lists.sort.descending' : 'lists.sort.ascending')

  return (
    <Box role="group" aria-label={t('lists.sort.label')} sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.75 }}>
      <Typography variant="body2" color="text.secondary" component="span">
        {t('lists.sort.label')}
      </Typography>
      {error && (
        <Tooltip title={t('lists.sort.reset')}>
          <Chip
            color="error"
            variant="outlined"
            size="small"
            label={t('lists.sort.invalid', { message: message(error.message) })}
            onDelete={() => onChange('')}
          />
        </Tooltip>
      )}
      {keys.map((key, index) => (
        <Chip
          key={key.field}
          size="small"
          color="primary"
          variant="outlined"
          icon={arrow(key)}
          label={fieldLabel(key.field)}
          title={t('lists.sort.reverse', { direction: direction(key) })}
          aria-label={t('lists.sort.key', { field: fieldLabel(key.field), direction: direction(key) })}
          onClick={() => change(keys.map((k, i) => (i === index ? { ...k, descending: !k.descending } : k)))}
          onDelete={() => change(keys.filter((_k, i) => i !== index))}
        />
      ))}
      {keys.length === 0 && !error && (
        <Typography variant="body2" component="span" sx={{ fontStyle: 'italic' }}>
          {t('lists.sort.default', { fields: (fields.data?.defaultSort ?? []).map((key) => fieldLabel(key.field)).join(', ') })}
        </Typography>
      )}
      {sortable.length > 0 && (
        <Tooltip title={t('lists.sort.add')}>
          <IconButton size="small" aria-label={t('lists.sort.add')} onClick={(event) => setMenu(event.currentTarget)}>
            <Add fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      <Menu anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)}>
        {sortable.map((field) => (
          <MenuItem
            key={field.name}
            onClick={() => {
              setMenu(null)
              change([...keys, { field: field.name, descending: false }])
            }}
          >
            {fieldLabel(field.name)}
          </MenuItem>
        ))}
      </Menu>
    </Box>
  )
}
