import { z } from 'zod'
import { optionalText, text } from '../../lib/text'
import type { Reference, ReferenceSave } from './api'

/** The reference dialog (spec 2 §5 Reference): code and label follow the general text rule; the description may stay empty. */
export const referenceSchema = z.object({
  code: text(),
  label: text(),
  description: optionalText(),
  enabled: z.boolean(),
})

export type ReferenceForm = z.infer<typeof referenceSchema>

export const EMPTY_REFERENCE: ReferenceForm = { code: '', label: '', description: '', enabled: true }

export const formFromReference = (reference: Reference): ReferenceForm => ({
  code: reference.code,
  label: reference.label,
  description: reference.description,
  enabled: !reference.disabled,
})

/** The version that only creates: a code already taken answers 409 alreadyExists instead of saving over it. */
const CREATE_ONLY = 0

/** The save payload: a version saves the reference read; a new one is sent with CREATE_ONLY. */
export const savePayload = (form: ReferenceForm, version?: number): ReferenceSave => ({
  code: form.code,
  label: form.label,
  description: form.description,
  disabled: !form.enabled,
  version: version ?? CREATE_ONLY,
})
