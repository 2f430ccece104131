import { BEGIN_END_WHITESPACE, EMPTY_FIELD } from '../text'
import type { SavedFilter } from './types'

export const NAME_ALREADY_USED = 'filterNameAlreadyUsed'

const LIGATURES: Record<string, string> = { œ: 'oe', æ: 'ae', Œ: 'oe', Æ: 'ae' }

/** Names compare as the server compares them: ignoring case and accents. */
export function foldName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[œæŒÆ]/g, (ligature) => LIGATURES[ligature])
    .toLowerCase()
}

/** The message key of a name's problem: the general text rule, then uniqueness among the other filters. */
export function nameProblem(name: string, filters: readonly SavedFilter[], renaming?: string): string | undefined {
  if (name.trim() === '') return EMPTY_FIELD
  if (name !== name.trim()) return BEGIN_END_WHITESPACE
  const folded = foldName(name)
  const taken = filters.some((f) => f.name !== renaming && foldName(f.name) === folded)
  return taken ? NAME_ALREADY_USED : undefined
}

/** `name` becomes the one default; null leaves none. */
export function withDefault(filters: readonly SavedFilter[], name: string | null): SavedFilter[] {
  return filters.map((f) => ({ ...f, isDefault: f.name === name }))
}

/** Adds a filter at the end; a new default takes the place of the previous one. */
export function withAdded(filters: readonly SavedFilter[], added: SavedFilter): SavedFilter[] {
  const others = added.isDefault ? withDefault(filters, null) : [...filters]
  return [...others, added]
}

export function withRenamed(filters: readonly SavedFilter[], from: string, to: string): SavedFilter[] {
  return filters.map((f) => (f.name === from ? { ...f, name: to } : f))
}

export function withRemoved(filters: readonly SavedFilter[], name: string): SavedFilter[] {
  return filters.filter((f) => f.name !== name)
}

export function defaultFilter(filters: readonly SavedFilter[]): SavedFilter | undefined {
  return filters.find((f) => f.isDefault)
}
