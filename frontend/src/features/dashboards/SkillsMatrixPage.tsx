import EditOutlined from '@mui/icons-material/EditOutlined'
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import IconButton from '@mui/material/IconButton'
import Link from '@mui/material/Link'
import MenuItem from '@mui/material/MenuItem'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { visuallyHidden } from '@mui/utils'
import { useMutation, useQuery } from '@tanstack/react-query'
import { type CSSProperties, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useParams, useSearchParams } from 'react-router'
import { whoAmIQuery } from '../../api/queries'
import { isApiError } from '../../api/errors'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { PageHeader } from '../../components/PageHeader'
import { formatDate } from '../../lib/dates'
import { useMessage } from '../../lib/messages'
import { usePageTitle } from '../../lib/pageTitle'
import { cartographyQualificationDashboardPath, functionPath, userQualificationDashboardPath } from '../../lib/paths'
import { idParam } from '../../lib/routeParams'
import { mayOpen } from '../../lib/routes'
import {
  type CellState,
  exportSkillsMatrix,
  type MatrixColumn,
  type MatrixFilters,
  type MatrixSort,
  type SkillsMatrix,
  skillsMatrixQuery,
  useSetMinimum,
} from './api'
import { BackButton } from './BackButton'
import { CELL_STATES, cellText, filtersFromSearch, searchFromFilters, STATE_COLOURS } from './skillsMatrix'

/** A glyph beside a cell's words, so that a state is told by more than its colour (aria-hidden: the cell says it in words). */
const GLYPHS: Record<CellState, string> = { valid: '✓', expiring: '!', inProgress: '↻', expired: '✕', never: '–' }
const COLUMN_WIDTH = 112
// The names' column, sticky: narrower on a phone, where the functions need the room.
const PERSON_WIDTH = { xs: 132, sm: 200 }

/**
 * The skills matrix of a cartography (docs/qualifications.md): a row per person concerned by its
 * qualifications, a column per function, each cell the person's state for the function, filtered by
 * group, function and state and sorted by name or functions held (in the address, so that a link
 * keeps them); the functions' people qualified, minimum and tomorrow's coverage at the foot; the same
 * matrix as Excel or PDF. A qualification administrator changes a function's minimum from the foot.
 */
export function SkillsMatrixPage() {
  const cartographyId = idParam(useParams().cartographyId)
  return cartographyId === undefined ? <NotFoundPage /> : <Matrix key={cartographyId} cartographyId={cartographyId} />
}

function Matrix({ cartographyId }: { cartographyId: number }) {
  const { t, i18n } = useTranslation()
  const [search, setSearch] = useSearchParams()
  const filters = filtersFromSearch(search)
  const { data: matrix, error, isFetching } = useQuery(skillsMatrixQuery(cartographyId, filters))
  const [editing, setEditing] = useState<MatrixColumn | null>(null)
  const [saved, setSaved] = useState('')
  const exporting = useMutation({ mutationFn: (format: 'excel' | 'pdf') => exportSkillsMatrix(cartographyId, filters, format, i18n.language) })
  const title = matrix && t('dashboards.matrix.titleOf', { name: matrix.cartography.name })
  usePageTitle(error ? undefined : (title ?? t('dashboards.matrix.title')))
  if (error) return <LoadFailure error={error} />
  if (!matrix || !title) return <Loading />
  const change = (patch: Partial<MatrixFilters>) => setSearch(searchFromFilters({ ...filters, ...patch }), { replace: true })

  return (
    <>
      <PageHeader
        title={title}
        actions={
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            <Button
              variant="outlined"
              startIcon={<FileDownloadOutlined />}
              onClick={() => exporting.mutate('excel')}
              disabled={exporting.isPending}
              aria-label={t('dashboards.matrix.exportExcel')}
            >
              {t('dashboards.matrix.excel')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<FileDownloadOutlined />}
              onClick={() => exporting.mutate('pdf')}
              disabled={exporting.isPending}
              aria-label={t('dashboards.matrix.exportPdf')}
            >
              {t('dashboards.matrix.pdf')}
            </Button>
          </Stack>
        }
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: -2, mb: 2 }}>
        <Link component={RouterLink} to={cartographyQualificationDashboardPath(cartographyId)} underline="hover">
          {matrix.cartography.siteName} · {matrix.cartography.name}
        </Link>
      </Typography>
      <Stack spacing={2}>
        <Filters matrix={matrix} filters={filters} onChange={change} />
        <Legend />
        <Typography variant="body2" color="text.secondary" aria-live="polite">
          {isFetching ? '' : t('dashboards.matrix.peopleShown', { shown: matrix.rows.length, total: matrix.totalPeople })}
        </Typography>
        <MatrixTable matrix={matrix} onEditMinimum={setEditing} />
        <Typography variant="caption" color="text.secondary">
          {t('dashboards.matrix.qualifiedNote')}
        </Typography>
      </Stack>
      {editing && (
        <MinimumDialog
          column={editing}
          onClose={(minimum) => {
            if (minimum !== undefined) setSaved(t('dashboards.matrix.saved', { name: editing.name, minimum }))
            setEditing(null)
          }}
        />
      )}
      <div aria-live="polite" style={visuallyHidden}>
        {exporting.isSuccess ? t('dashboards.matrix.exported') : saved}
      </div>
      <BackButton />
    </>
  )
}

function Filters({ matrix, filters, onChange }: { matrix: SkillsMatrix; filters: MatrixFilters; onChange: (patch: Partial<MatrixFilters>) => void }) {
  const { t } = useTranslation()
  const names = (ids: number[], items: { id: number; name: string }[]) =>
    ids.length === 0 ? t('dashboards.matrix.all') : items.filter((item) => ids.includes(item.id)).map((item) => item.name).join(', ')
  const multiple = (value: unknown) => (typeof value === 'string' ? value.split(',') : (value as (string | number)[]))
  // Side by side from the tablet's width, one under the other on a phone.
  const field = { size: 'small' as const, sx: { minWidth: { sm: 180 }, flex: { sm: '1 1 180px' }, maxWidth: { sm: 320 } } }
  return (
    <Paper variant="outlined" component="section" aria-label={t('dashboards.matrix.filters')} sx={{ p: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ flexWrap: 'wrap', rowGap: 2 }}>
        <TextField
          {...field}
          select
          label={t('dashboards.matrix.groups')}
          value={filters.groups}
          onChange={(event) => onChange({ groups: multiple(event.target.value).map(Number) })}
          slotProps={{ select: { multiple: true, displayEmpty: true, renderValue: () => names(filters.groups, matrix.groups) }, inputLabel: { shrink: true } }}
        >
          {matrix.groups.map((group) => (
            <MenuItem key={group.id} value={group.id}>
              {group.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          {...field}
          select
          label={t('dashboards.matrix.functions')}
          value={filters.functions}
          onChange={(event) => onChange({ functions: multiple(event.target.value).map(Number) })}
          slotProps={{ select: { multiple: true, displayEmpty: true, renderValue: () => names(filters.functions, matrix.functions) }, inputLabel: { shrink: true } }}
        >
          {matrix.functions.map((item) => (
            <MenuItem key={item.id} value={item.id}>
              {item.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          {...field}
          select
          label={t('dashboards.matrix.states')}
          value={filters.states}
          onChange={(event) => onChange({ states: CELL_STATES.filter((s) => multiple(event.target.value).includes(s)) })}
          slotProps={{
            select: {
              multiple: true,
              displayEmpty: true,
              renderValue: () => (filters.states.length === 0 ? t('dashboards.matrix.all') : filters.states.map((s) => t(`dashboards.matrix.stateNames.${s}`)).join(', ')),
            },
            inputLabel: { shrink: true },
          }}
        >
          {CELL_STATES.map((state) => (
            <MenuItem key={state} value={state}>
              {t(`dashboards.matrix.stateNames.${state}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          {...field}
          select
          label={t('dashboards.matrix.sort')}
          value={filters.sort}
          onChange={(event) => onChange({ sort: event.target.value as MatrixSort })}
        >
          {(['name', 'held'] as const).map((sort) => (
            <MenuItem key={sort} value={sort}>
              {t(`dashboards.matrix.sorts.${sort}`)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
    </Paper>
  )
}

function Swatch({ state }: { state: CellState }) {
  const { fill, ink } = STATE_COLOURS[state]
  return (
    <Box
      component="span"
      aria-hidden
      sx={{ display: 'inline-flex', alignItems: 'center', justifyContent: 'center', flex: 'none', width: 22, height: 22, borderRadius: 0.5, border: 1, borderColor: 'divider', bgcolor: fill, color: ink, fontWeight: 700, fontSize: 13 }}
    >
      {GLYPHS[state]}
    </Box>
  )
}

function Legend() {
  const { t } = useTranslation()
  const headingId = useId()
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle2" component="h2" sx={{ mb: 0.5 }}>
        {t('dashboards.matrix.legend')}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexWrap: 'wrap', columnGap: 2.5, rowGap: 0.75 }}>
        {CELL_STATES.map((state) => (
          <Box component="li" key={state} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
            <Swatch state={state} />
            <Typography variant="body2">
              <strong>{t(`dashboards.matrix.stateNames.${state}`)}</strong>
              <Typography component="span" variant="body2" color="text.secondary">
                {' '}
                ({t(`dashboards.matrix.stateHelp.${state}`)})
              </Typography>
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  )
}

const sticky: CSSProperties = { position: 'sticky', left: 0 }

function MatrixTable({ matrix, onEditMinimum }: { matrix: SkillsMatrix; onEditMinimum: (column: MatrixColumn) => void }) {
  const { t, i18n } = useTranslation()
  const { data: user } = useQuery({ ...whoAmIQuery, enabled: false })
  const linkPeople = matrix.rows.length > 0 && mayOpen(user, userQualificationDashboardPath(matrix.rows[0].id))
  const words = { permanent: t('dashboards.matrix.permanent'), inProgress: t('dashboards.matrix.inProgress') }
  const day = (value: string) => formatDate(value, i18n.language)
  if (matrix.totalPeople === 0) return <Typography color="text.secondary">{t('dashboards.matrix.nobody')}</Typography>
  if (matrix.columns.length === 0) return <Typography color="text.secondary">{t('dashboards.matrix.noFunction')}</Typography>
  const points = matrix.columns[0].forecast.points.slice(1)
  const cellSx = { px: 0.75, py: 0.5, borderBottom: 1, borderRight: 1, borderColor: 'divider', fontSize: 13 }
  const headSx = { ...cellSx, bgcolor: 'background.paper', fontWeight: 600, textAlign: 'left' as const, verticalAlign: 'bottom' }
  const footLabel = (label: string) => (
    <Box component="th" scope="row" sx={{ ...headSx, ...sticky, zIndex: 1, verticalAlign: 'middle' }}>
      {label}
    </Box>
  )
  const under = (flag: boolean) => (flag ? { color: 'error.text', fontWeight: 700, bgcolor: '#FFE4E8' } : {})
  return (
    <Box
      role="region"
      aria-label={t('dashboards.matrix.region')}
      tabIndex={0}
      // Positioned: the cells' visually hidden words (absolutely placed) stay inside its scrolled frame
      // instead of widening the page.
      sx={{ position: 'relative', overflow: 'auto', maxHeight: { xs: '70vh', md: '75vh' }, border: 1, borderColor: 'divider', borderRadius: 1, '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } }}
    >
      <Box component="table" sx={{ borderCollapse: 'separate', borderSpacing: 0 }}>
        <caption style={visuallyHidden}>{t('dashboards.matrix.caption', { name: matrix.cartography.name })}</caption>
        <Box component="thead" sx={{ position: 'sticky', top: 0, zIndex: 2 }}>
          <tr>
            <Box component="th" scope="col" sx={{ ...headSx, ...sticky, zIndex: 3, minWidth: PERSON_WIDTH }}>
              {t('dashboards.matrix.person')}
            </Box>
            {matrix.columns.map((column) => (
              <Box component="th" scope="col" key={column.id} data-function={column.id} sx={{ ...headSx, width: COLUMN_WIDTH, minWidth: COLUMN_WIDTH, maxWidth: COLUMN_WIDTH }}>
                <Link component={RouterLink} to={functionPath(column.id)} underline="hover" sx={{ overflowWrap: 'anywhere' }}>
                  {column.name}
                </Link>
              </Box>
            ))}
            <Box component="th" scope="col" sx={{ ...headSx, minWidth: 80 }}>
              {t('dashboards.matrix.held')}
            </Box>
          </tr>
        </Box>
        <tbody>
          {matrix.rows.map((row) => (
            <tr key={row.id} data-person={row.id}>
              <Box component="th" scope="row" sx={{ ...headSx, ...sticky, zIndex: 1, fontWeight: 500, verticalAlign: 'middle', minWidth: PERSON_WIDTH, maxWidth: 260, overflowWrap: 'anywhere' }}>
                {linkPeople ? (
                  <Link component={RouterLink} to={userQualificationDashboardPath(row.id)} underline="hover">
                    {row.name}
                  </Link>
                ) : (
                  row.name
                )}
              </Box>
              {row.cells.map((cell, i) => {
                const { fill, ink } = STATE_COLOURS[cell.state]
                return (
                  <Box component="td" key={matrix.columns[i].id} data-state={cell.state} sx={{ ...cellSx, bgcolor: fill, color: ink, whiteSpace: 'nowrap' }}>
                    <span aria-hidden style={{ fontWeight: 700, marginRight: 4 }}>
                      {GLYPHS[cell.state]}
                    </span>
                    <span style={visuallyHidden}>{t(`dashboards.matrix.stateNames.${cell.state}`)} </span>
                    {cellText(cell, day, words)}
                  </Box>
                )
              })}
              <Box component="td" sx={{ ...cellSx, textAlign: 'right', fontWeight: 600 }}>
                {row.held}
              </Box>
            </tr>
          ))}
          {matrix.rows.length === 0 && (
            <tr>
              <Box component="td" colSpan={matrix.columns.length + 2} sx={{ ...cellSx, color: 'text.secondary' }}>
                {t('dashboards.matrix.noMatch')}
              </Box>
            </tr>
          )}
        </tbody>
        <tfoot>
          <tr>
            {footLabel(t('dashboards.matrix.qualified'))}
            {matrix.columns.map((column) => (
              <Box component="td" key={column.id} data-under={column.underMinimum || undefined} sx={{ ...cellSx, textAlign: 'right', ...under(column.underMinimum) }}>
                {column.qualified}
                {column.underMinimum && <span style={visuallyHidden}>, {t('dashboards.matrix.underMinimum')}</span>}
              </Box>
            ))}
            <Box component="td" sx={cellSx} />
          </tr>
          <tr>
            {footLabel(t('dashboards.matrix.minimum'))}
            {matrix.columns.map((column) => (
              <Box component="td" key={column.id} sx={{ ...cellSx, textAlign: 'right', whiteSpace: 'nowrap' }}>
                {column.minimum}
                {matrix.can.editMinimum && (
                  <IconButton size="small" aria-label={t('dashboards.matrix.editMinimum', { name: column.name })} onClick={() => onEditMinimum(column)} sx={{ ml: 0.25, p: 0.25 }}>
                    <EditOutlined fontSize="inherit" />
                  </IconButton>
                )}
              </Box>
            ))}
            <Box component="td" sx={cellSx} />
          </tr>
          {points.map((point, p) => (
            <tr key={point.days}>
              {footLabel(t('dashboards.matrix.inDays', { count: point.days }))}
              {matrix.columns.map((column) => {
                const at = column.forecast.points[p + 1]
                return (
                  <Box component="td" key={column.id} sx={{ ...cellSx, textAlign: 'right', ...under(at.underMinimum) }}>
                    {at.valid}
                    {at.underMinimum && <span style={visuallyHidden}>, {t('dashboards.matrix.underMinimum')}</span>}
                  </Box>
                )
              })}
              <Box component="td" sx={cellSx} />
            </tr>
          ))}
        </tfoot>
      </Box>
    </Box>
  )
}

/** Changes a function's minimum of qualified people; a value the server refuses shows on the field. */
function MinimumDialog({ column, onClose }: { column: MatrixColumn; onClose: (minimum?: number) => void }) {
  const { t } = useTranslation()
  const message = useMessage()
  const titleId = useId()
  const [value, setValue] = useState(String(column.minimum))
  const [refusal, setRefusal] = useState<string | undefined>()
  const setMinimum = useSetMinimum()
  const submit = (event: React.FormEvent) => {
    event.preventDefault()
    // A whole number is sent; whether it is within the range is the server's rule.
    if (!/^\d{1,9}$/.test(value.trim())) {
      setRefusal('valueMustBeBetween')
      return
    }
    const minimum = Number(value.trim())
    setMinimum.mutate(
      { functionId: column.id, minimum },
      {
        onSuccess: () => onClose(minimum),
        onError: (error) => setRefusal(isApiError(error) ? (error.errors[0]?.code ?? error.message) : undefined),
      },
    )
  }
  return (
    <Dialog open onClose={() => onClose()} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{t('dashboards.matrix.minimumTitle', { name: column.name })}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={t('dashboards.matrix.minimumLabel')}
            value={value}
            onChange={(event) => {
              setValue(event.target.value)
              setRefusal(undefined)
            }}
            error={refusal !== undefined}
            helperText={refusal ? `${message(refusal)}. ${t('dashboards.matrix.minimumHelp')}` : t('dashboards.matrix.minimumHelp')}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
          {setMinimum.isError && refusal === undefined && <Alert severity="error">{message(setMinimum.error.message)}</Alert>}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => onClose()}>{t('actions.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={setMinimum.isPending}>
            {t('actions.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  )
}
