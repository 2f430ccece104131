import type { CriterionNode, FilterNode, SortKey } from './types'

/** Characters that end a value or open or close a group, as the server's lexer reads them. */
const STRUCTURE = new Set(['&', '|', '(', ')'])
const WHITESPACE = new Set([' ', '\t', '\r', '\n'])
/** How the empty value is written. */
export const EMPTY_VALUE = '\\0'

/**
 * A value as the server's printer writes it: a backslash before structure characters, backslashes,
 * commas of list items, and a first or last whitespace character (otherwise trimmed); `\0` for "".
 */
export function escapeValue(text: string, inList = false): string {
  if (text === '') return EMPTY_VALUE
  // By code point, as the server counts characters.
  const chars = Array.from(text)
  const last = chars.length - 1
  return chars.map((char, index) => {
    const special = STRUCTURE.has(char) || char === '\\' || (inList && char === ',')
    const edgeSpace = WHITESPACE.has(char) && (index === 0 || index === last)
    return special || edgeSpace ? `\\${char}` : char
  }).join('')
}

function printValue(criterion: CriterionNode): string {
  switch (criterion.type) {
    case 'boolean':
      return criterion.value === true ? 'true' : 'false'
    case 'enum':
    case 'id':
    case 'location':
      return (criterion.values ?? []).map((v) => (typeof v === 'number' ? String(v) : escapeValue(v, true))).join(',')
    default:
      return escapeValue(typeof criterion.value === 'string' ? criterion.value : '')
  }
}

function printCriterion(criterion: CriterionNode): string {
  return `${criterion.field} ${criterion.operator} ${printValue(criterion)}`
}

/** A tree back to text that the server parses to the same tree; "" for no filter. */
export function printFilter(node: FilterNode | null): string {
  if (node === null) return ''
  if (node.kind === 'criterion') return printCriterion(node)
  const joiner = node.kind === 'and' ? ' & ' : ' | '
  return node.children.map((child) => (child.kind === 'criterion' ? printCriterion(child) : `(${printFilter(child)})`)).join(joiner)
}

export function printSort(keys: readonly SortKey[]): string {
  return keys.map((key) => `${key.descending ? '-' : ''}${key.field}`).join(',')
}
