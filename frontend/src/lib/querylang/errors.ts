import { isApiError } from '../../api/errors'

/** A filter or sort text the server refused: its message (one of the language's) and where. */
export interface QueryTextError {
  message: string
  /** Offset of the problem in the text, in characters. */
  position: number
  /** Which text: "filter" or "sort". */
  source: string
}

interface PositionedFieldError {
  field: string
  code: string
  position?: number
}

/** The query-language error of a failed call (a 400 with a position), if it is one. */
export function queryTextError(error: unknown): QueryTextError | undefined {
  if (!isApiError(error, 400)) return undefined
  const first = error.errors[0] as PositionedFieldError | undefined
  if (first?.position === undefined) return undefined
  return { message: first.code, position: first.position, source: first.field }
}

/** The error of a checked text (POST /querylang/{entityType}/check), if it was refused. */
export function checkedTextError(result: { errors: { field: string; code: string; position?: number | null }[] }): QueryTextError | undefined {
  const first = result.errors[0]
  if (first?.position === undefined || first.position === null) return undefined
  return { message: first.code, position: first.position, source: first.field }
}

/** The server's parse messages (backend/src/spot/querylang/errors.py) and their i18n keys. */
export const PARSE_MESSAGE_KEYS: Record<string, string> = {
  'Unterminated escape sequence': 'lists.parseErrors.unterminatedEscape',
  'Escaped char is not a special char': 'lists.parseErrors.notSpecial',
  'Unexpected character': 'lists.parseErrors.unexpectedCharacter',
  'Matching parenthesis not found': 'lists.parseErrors.noMatchingParenthesis',
  'The token must not be empty': 'lists.parseErrors.emptyToken',
  'Field is not valid for this query': 'lists.parseErrors.invalidField',
  'This operator is not valid for this field type': 'lists.parseErrors.invalidOperator',
  'An operator must be followed by a term': 'lists.parseErrors.missingTerm',
  'Parenthesis does not contain a query': 'lists.parseErrors.emptyParenthesis',
  'Invalid date. Must be formatted as YYYY-MM-DD': 'lists.parseErrors.invalidDate',
  'Operators & and | cannot be mixed without parentheses': 'lists.parseErrors.mixedOperators',
  'This value is not valid for this field': 'lists.parseErrors.invalidValue',
  'Too many nested parentheses': 'lists.parseErrors.tooDeep',
}

/** The UTF-16 index of the server's position, which counts code points (as Python does). */
export function utf16Offset(text: string, position: number): number {
  return Array.from(text).slice(0, position).join('').length
}
