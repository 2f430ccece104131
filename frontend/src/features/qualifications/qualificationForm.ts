import { z } from 'zod'
import { EMPTY_FIELD, text } from '../../lib/text'
import type { Qualification, QualificationSave } from './api'

/** A cartography, a group or a module, as the pickers show and hold it. */
export interface Named {
  id: number
  name: string
}

/** A function the qualification opens, with the cartography it belongs to. */
export interface NamedFunction extends Named {
  cartographyId: number
}

const named = z.object({ id: z.number(), name: z.string() })
const atLeastOne = () => z.array(named).min(1, EMPTY_FIELD)

/** The requalification window the server accepts, in days (0: Spot opens no requalification path). */
export const DEFAULT_WINDOW_DAYS = 60
export const MAX_WINDOW_DAYS = 3650
const OUT_OF_RANGE = 'valueMustBeBetween'
const isWholeNumber = (value: string) => /^(0|[1-9]\d*)$/.test(value)

/**
 * The qualification form (spec 2 §5 Qualification): the name follows the general text rule (not empty,
 * no whitespace at either end); groups and modules are required, at least one of each. The functions it
 * opens are among its cartographies' (the server refuses another, invalidValue); the requalification
 * window is a whole number of days from 0 to 3650 (valueMustBeBetween, as the server says).
 */
export const qualificationSchema = z.object({
  name: text(),
  cartographies: z.array(named),
  qualifiableGroups: atLeastOne(),
  modules: atLeastOne(),
  functions: z.array(named.extend({ cartographyId: z.number() })),
  requalificationWindowDays: z.string().refine((value) => isWholeNumber(value) && Number(value) <= MAX_WINDOW_DAYS, OUT_OF_RANGE),
  defaultReferents: z.array(named),
})

export type QualificationForm = z.infer<typeof qualificationSchema>

export const EMPTY_FORM: QualificationForm = {
  name: '',
  cartographies: [],
  qualifiableGroups: [],
  modules: [],
  functions: [],
  requalificationWindowDays: String(DEFAULT_WINDOW_DAYS),
  defaultReferents: [],
}

export function formFromQualification(qualification: Qualification): QualificationForm {
  const pick = ({ id, name }: Named) => ({ id, name })
  return {
    name: qualification.name,
    cartographies: qualification.cartographies.map(pick),
    qualifiableGroups: qualification.qualifiableGroups.map(pick),
    modules: qualification.modules.map(pick),
    functions: qualification.functions.map(({ id, name, cartographyId }) => ({ id, name, cartographyId })),
    requalificationWindowDays: String(qualification.requalificationWindowDays),
    defaultReferents: qualification.defaultReferents.map(pick),
  }
}

/** The functions still among the chosen cartographies' (a cartography taken out takes its functions). */
export function functionsOf(functions: NamedFunction[], cartographies: Named[]): NamedFunction[] {
  return functions.filter((fn) => cartographies.some((cartography) => cartography.id === fn.cartographyId))
}

/** The save payload: ids only, modules in the order chosen, the functions of the chosen cartographies. */
export function savePayload(form: QualificationForm): QualificationSave {
  const ids = (items: Named[]) => items.map((item) => item.id)
  return {
    name: form.name,
    cartographies: ids(form.cartographies),
    qualifiableGroups: ids(form.qualifiableGroups),
    modules: ids(form.modules),
    functions: ids(functionsOf(form.functions, form.cartographies)),
    requalificationWindowDays: Number(form.requalificationWindowDays),
    defaultReferents: ids(form.defaultReferents),
  }
}
