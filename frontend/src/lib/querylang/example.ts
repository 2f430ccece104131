import type { QueryField } from './types'

/**
 * An example filter written with an entity type's own fields, for the text editor's placeholder: a
 * text criterion (the `name` field when there is one) and a date criterion, those the type has.
 * Empty when it has neither.
 */
export function filterExample(fields: readonly QueryField[], word: string, year: number): string {
  const usable = (type: QueryField['type'], operator: string) =>
    fields.filter((field) => field.filterable && field.type === type && field.operators.includes(operator))
  const texts = usable('string', 'contains')
  const text = texts.find((field) => field.name === 'name') ?? texts[0]
  const date = usable('date', 'after')[0]
  return [text && `${text.name} contains ${word}`, date && `${date.name} after ${year}-01-01`].filter(Boolean).join(' & ')
}
