/**
 * FilterEditor: edits the filter of one entity type's list, as rows or as text.
 *
 * Props:
 * - entityType: the query-language entity type ("user", "subject", …); fields come from
 *   GET /querylang/{entityType}/fields.
 * - filter: the applied filter text; the editor starts from it, and starts again when it changes.
 * - fieldLabel(field), enumLabel?(field, value): how fields and enum values read (FieldLabels).
 * - sources?: ValueSources by field name, for id and location fields (search and labels).
 * - onApply(filter): called with the new filter text ("" for none) when the user applies it.
 *
 * Rows mode: one criterion per row (field, operator, value input by type), all joined by "and" or
 * by "or". Text mode: free text checked by the server's parser 500 ms after typing stops, its error
 * shown with its position. A filter the rows cannot show (nested or mixed groups) is too complex for
 * the editor: it offers the text mode only. A filter with an error cannot be applied.
 */
import Add from '@mui/icons-material/Add'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Divider from '@mui/material/Divider'
import Stack from '@mui/material/Stack'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import Typography from '@mui/material/Typography'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Fragment, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { queryKeys } from '../../api/queryKeys'
import { Loading } from '../Loading'
import { checkQuery, fieldsQuery, parseQuery } from '../../lib/querylang/api'
import { checkedTextError, type QueryTextError } from '../../lib/querylang/errors'
import {
  EMPTY_ROWS,
  MUST_NOT_BE_EMPTY,
  type FilterRows,
  type Join,
  newRow,
  printRows,
  rowErrors,
  treeToRows,
} from '../../lib/querylang/rows'
import type { ParseResult, QueryField } from '../../lib/querylang/types'
import { useDebouncedValue } from '../../lib/useDebouncedValue'
import { CriterionRow } from './CriterionRow'
import { TextFilter } from './TextFilter'
import type { FieldLabels, ValueSources } from './types'

export interface FilterEditorProps extends FieldLabels {
  entityType: string
  filter: string
  sources?: ValueSources
  onApply: (filter: string) => void
}

type Mode = 'rows' | 'text'

interface Start {
  mode: Mode
  rows: FilterRows
}

/** Rows when the applied filter can be shown as rows; text otherwise (too complex, or refused by the server). */
function startFrom(parsed: ParseResult | undefined): Start {
  const rows = parsed ? treeToRows(parsed.filter) : null
  return rows ? { mode: 'rows', rows } : { mode: 'text', rows: EMPTY_ROWS }
}

export function FilterEditor(props: FilterEditorProps) {
  const { entityType, filter } = props
  const fields = useQuery(fieldsQuery(entityType))
  const parsed = useQuery(parseQuery(entityType, filter))
  if (fields.isPending || parsed.isPending) return <Loading />
  if (fields.isError) return null
  return (
    <EditorBody
      key={filter}
      {...props}
      fields={fields.data.fields.filter((field) => field.filterable)}
      start={startFrom(parsed.data)}
    />
  )
}

interface EditorBodyProps extends FilterEditorProps {
  fields: QueryField[]
  start: Start
}

function EditorBody({ entityType, filter, fields, start, sources, fieldLabel, enumLabel, onApply }: EditorBodyProps) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const [mode, setMode] = useState<Mode>(start.mode)
  const [rows, setRows] = useState<FilterRows>(start.rows)
  const [text, setText] = useState(filter)
  // The error of the last Apply in text mode, until the text changes.
  const [applyError, setApplyError] = useState<QueryTextError>()

  const checkedText = useDebouncedValue(text.trim())
  const check = useQuery({ ...checkQuery(entityType, checkedText), enabled: mode === 'text' })
  const upToDate = checkedText === text.trim() && !check.isFetching
  const checkedError = upToDate && check.data ? checkedTextError(check.data) : undefined
  const textError = applyError ?? checkedError
  const textRows = upToDate && check.data && !checkedError ? treeToRows(check.data.filter ?? null) : undefined
  const tooComplex = textRows === null

  // A criterion whose field has just been chosen waits for its value: saying that one must be chosen
  // comes once the user has changed the value, or tried to apply.
  const [valueGiven, setValueGiven] = useState<ReadonlySet<number>>(() => new Set(start.rows.rows.map((row) => row.key)))
  const allErrors = rows.rows.map((row) => rowErrors(row, fields))
  const errors = allErrors.map((error, index) => (error?.value === MUST_NOT_BE_EMPTY && !valueGiven.has(rows.rows[index].key) ? undefined : error))
  const rowsHaveErrors = errors.some((error) => error !== undefined)
  const cannotApply = mode === 'rows' ? rowsHaveErrors : textError !== undefined

  const changeText = (next: string) => {
    setText(next)
    setApplyError(undefined)
  }

  const switchMode = (next: Mode | null) => {
    if (next === 'text' && mode === 'rows') {
      changeText(printRows(rows))
      setMode('text')
    } else if (next === 'rows' && mode === 'text' && textRows) {
      setRows(textRows)
      setMode('rows')
    }
  }

  const apply = async () => {
    if (mode === 'rows') {
      if (allErrors.some((error) => error !== undefined)) return setValueGiven(new Set(rows.rows.map((row) => row.key)))
      return onApply(printRows(rows))
    }
    const candidate = text.trim()
    const error = checkedTextError(await queryClient.fetchQuery(checkQuery(entityType, candidate)))
    if (error) setApplyError(error)
    else onApply(candidate)
  }

  const clear = () => {
    setRows({ ...rows, rows: [] })
    changeText('')
  }

  const addRow = () => setRows({ ...rows, rows: [...rows.rows, newRow(fields[0])] })

  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t('lists.editor.title')}
        </Typography>
        <ToggleButtonGroup size="small" exclusive value={mode} onChange={(_event, next: Mode | null) => switchMode(next)} aria-label={t('lists.editor.mode')}>
          <ToggleButton value="rows" disabled={mode === 'text' && !textRows}>
            {t('lists.editor.rowsMode')}
          </ToggleButton>
          <ToggleButton value="text">{t('lists.editor.textMode')}</ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      {mode === 'rows' ? (
        <Stack spacing={1.5}>
          {rows.rows.length >= 2 && (
            <ToggleButtonGroup
              size="small"
              exclusive
              value={rows.join}
              onChange={(_event, join: Join | null) => join && setRows({ ...rows, join })}
              aria-label={t('lists.editor.join')}
            >
              <ToggleButton value="and">{t('lists.editor.joinAnd')}</ToggleButton>
              <ToggleButton value="or">{t('lists.editor.joinOr')}</ToggleButton>
            </ToggleButtonGroup>
          )}
          {rows.rows.length === 0 && (
            <Typography color="text.secondary" variant="body2">
              {t('lists.editor.noCriterion')}
            </Typography>
          )}
          {rows.rows.map((row, index) => (
            <Fragment key={row.key}>
              {index > 0 && (
                <Divider textAlign="left">
                  <Typography variant="caption" color="text.secondary" sx={{ textTransform: 'uppercase', fontWeight: 600 }}>
                    {t(rows.join === 'and' ? 'lists.editor.and' : 'lists.editor.or')}
                  </Typography>
                </Divider>
              )}
              <CriterionRow
                row={row}
                number={index + 1}
                fields={fields}
                errors={errors[index]}
                source={sources?.[row.field]}
                cacheKey={queryKeys.filterValues(entityType)}
                fieldLabel={fieldLabel}
                enumLabel={enumLabel}
                onChange={(next) => {
                  setRows({ ...rows, rows: rows.rows.map((r) => (r.key === row.key ? next : r)) })
                  const given = new Set(valueGiven)
                  if (next.field !== row.field) given.delete(row.key)
                  else if (next.value !== row.value || next.values !== row.values) given.add(row.key)
                  setValueGiven(given)
                }}
                onRemove={() => setRows({ ...rows, rows: rows.rows.filter((r) => r.key !== row.key) })}
              />
            </Fragment>
          ))}
          <Box>
            <Button startIcon={<Add />} onClick={addRow} disabled={fields.length === 0}>
              {t('lists.editor.add')}
            </Button>
          </Box>
        </Stack>
      ) : (
        <TextFilter value={text} onChange={changeText} error={textError} tooComplex={tooComplex} fields={fields} />
      )}
      {mode === 'rows' && rowsHaveErrors && <Alert severity="error">{t('codes.atLeastOneErrorLeft')}</Alert>}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={clear}>{t('lists.editor.clear')}</Button>
        <Button variant="contained" disabled={cannotApply} onClick={() => void apply()}>
          {t('lists.editor.apply')}
        </Button>
      </Stack>
    </Stack>
  )
}
