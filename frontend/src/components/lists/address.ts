import { useCallback } from 'react'
import { useLocation, useNavigate, useSearchParams } from 'react-router'

/** The query parameters of a list address (spec part 1, §2). */
export const SORTING_PARAM = 'sorting'
export const APPLY_DEFAULT_PARAM = 'applyDefaultFilter'
export const TARGET_PARAM = 'target'

/** The address of a list: `basePath`, then the filter text as one encoded segment when there is one. */
export function listPath(basePath: string, filter: string): string {
  return filter === '' ? basePath : `${basePath}/${encodeURIComponent(filter)}`
}

/**
 * The filter text of a list address. Read from the raw path rather than the route parameter, which
 * react-router decodes in a way that turns an encoded "%2F" typed in a filter into "/".
 */
export function filterOfPath(pathname: string, basePath: string): string {
  const prefix = `${basePath}/`
  if (!pathname.startsWith(prefix)) return ''
  const segment = pathname.slice(prefix.length)
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

export interface ListAddress {
  filter: string
  sorting: string
  applyDefault: boolean
  target: string | undefined
  /** Shows another filter and sort; the target and applyDefaultFilter are spent, other parameters stay. */
  show: (next: { filter: string; sorting: string }, options?: { replace?: boolean }) => void
}

/** The state a list keeps in its address, so that a filtered list can be bookmarked and shared. */
export function useListAddress(basePath: string): ListAddress {
  const { pathname } = useLocation()
  const [search] = useSearchParams()
  const navigate = useNavigate()
  const show = useCallback(
    ({ filter, sorting }: { filter: string; sorting: string }, options?: { replace?: boolean }) => {
      const next = new URLSearchParams(search)
      next.delete(APPLY_DEFAULT_PARAM)
      next.delete(TARGET_PARAM)
      if (sorting === '') next.delete(SORTING_PARAM)
      else next.set(SORTING_PARAM, sorting)
      const query = next.toString()
      void navigate({ pathname: listPath(basePath, filter), search: query ? `?${query}` : '' }, options)
    },
    [search, navigate, basePath],
  )
  return {
    filter: filterOfPath(pathname, basePath),
    sorting: search.get(SORTING_PARAM) ?? '',
    applyDefault: search.get(APPLY_DEFAULT_PARAM) === 'true',
    target: search.get(TARGET_PARAM) ?? undefined,
    show,
  }
}
