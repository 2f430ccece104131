import { z } from 'zod'

/** Message keys of the specification's general text rule (part 1, §5). */
export const EMPTY_FIELD = 'emptyFieldError'
export const BEGIN_END_WHITESPACE = 'beginEndWhitespaceError'

function checkText(value: string, ctx: z.RefinementCtx, required: boolean): void {
  if (required && value.trim() === '') ctx.addIssue({ code: 'custom', message: EMPTY_FIELD })
  else if (value !== value.trim()) ctx.addIssue({ code: 'custom', message: BEGIN_END_WHITESPACE })
}

/** The general text rule: not empty, no leading or trailing whitespace. */
export function text() {
  return z.string().superRefine((value, ctx) => checkText(value, ctx, true))
}

/** The general text rule for a field that may stay empty. */
export function optionalText() {
  return z.string().superRefine((value, ctx) => checkText(value, ctx, false))
}
