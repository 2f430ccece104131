import type { CellState, MatrixCell, MatrixFilters, MatrixSort } from './api'

/** The cells' states, in the legend's order (the server's CellState). */
export const CELL_STATES: readonly CellState[] = ['valid', 'expiring', 'inProgress', 'expired', 'never']
const SORTS: readonly MatrixSort[] = ['name', 'held']

/**
 * Each state's fill and ink: the Excel file's and the PDF's colours (dashboards/matrix_files.py), dark
 * ink on a light fill (contrast above 4.5:1). A cell also says its state in words or by an icon.
 */
export const STATE_COLOURS: Record<CellState, { fill: string; ink: string }> = {
  valid: { fill: '#C6EFCE', ink: '#006100' },
  expiring: { fill: '#FFEB9C', ink: '#7A4B00' },
  inProgress: { fill: '#DDEBF7', ink: '#1F4E79' },
  expired: { fill: '#FFC7CE', ink: '#9C0006' },
  never: { fill: '#F2F2F2', ink: '#595959' },
}

const ids = (values: string[]) => [...new Set(values.filter((v) => /^\d{1,15}$/.test(v)).map(Number))]

/** The filters and sort an address carries (?group=…&function=…&state=…&sort=held); unknown values are left out. */
export function filtersFromSearch(search: URLSearchParams): MatrixFilters {
  const sort = search.get('sort')
  return {
    groups: ids(search.getAll('group')),
    functions: ids(search.getAll('function')),
    states: CELL_STATES.filter((s) => search.getAll('state').includes(s)),
    sort: SORTS.find((s) => s === sort) ?? 'name',
  }
}

/** The address's query for the filters (nothing for the defaults). */
export function searchFromFilters(filters: MatrixFilters): URLSearchParams {
  const search = new URLSearchParams()
  for (const g of filters.groups) search.append('group', String(g))
  for (const f of filters.functions) search.append('function', String(f))
  for (const s of filters.states) search.append('state', s)
  if (filters.sort !== 'name') search.set('sort', filters.sort)
  return search
}

/** What a cell shows: its last valid day, or a word when it has none (permanent, in progress), or nothing (never). */
export function cellText(cell: MatrixCell, formatDate: (day: string) => string, words: { permanent: string; inProgress: string }): string {
  if (cell.validUntil) return formatDate(cell.validUntil)
  if (cell.state === 'valid') return words.permanent
  if (cell.state === 'inProgress') return words.inProgress
  return ''
}
