import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { cartographyPath, functionPath, subjectPath } from '../../lib/paths'

type Schemas = components['schemas']
export type SearchOut = Schemas['SearchOut']
export type SearchResult = Schemas['SearchResult']
export type CategoryResults = Schemas['CategoryResults']
export type ContextEntry = Schemas['ContextEntry']
export type Category = 'cartographies' | 'functions' | 'subjects' | 'nodes'

export const CATEGORIES: Category[] = ['cartographies', 'functions', 'subjects', 'nodes']
/** Results per category, collapsed and expanded (spec 1 §9). */
export const COLLAPSED = 5
export const EXPANDED = 30

const SEARCH_PATH = '/backend/api/v2/search'

/** The first results of the four categories for a text (1 character at least). */
export const searchQuery = (text: string) =>
  queryOptions({
    queryKey: queryKeys.search.text(text),
    queryFn: ({ signal }) => data(api.GET(SEARCH_PATH, { params: { query: { text, limit: COLLAPSED } }, signal })),
    enabled: text.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  })

/** The first EXPANDED results of one category: its "show more". */
export const searchCategoryQuery = (text: string, category: Category, enabled: boolean) =>
  queryOptions({
    queryKey: queryKeys.search.category(text, category),
    queryFn: ({ signal }) => data(api.GET(SEARCH_PATH, { params: { query: { text, limit: EXPANDED, category } }, signal })),
    enabled: enabled && text.length > 0,
    staleTime: 30_000,
  })

/** The page of an item of a context or of a result; none for sites and activities. */
export function entryPath(type: ContextEntry['type'], id: number): string | null {
  if (type === 'cartography') return cartographyPath(id)
  if (type === 'function') return functionPath(id)
  if (type === 'subject') return subjectPath(id)
  return null
}

/** Where a result leads: its page, or its subject's for a mind-map node. */
export function resultPath(result: SearchResult): string | null {
  if (result.type !== 'mindmapNode') return entryPath(result.type, result.id)
  const subject = result.context.findLast((entry) => entry.type === 'subject')
  return subject ? subjectPath(subject.id) : null
}
