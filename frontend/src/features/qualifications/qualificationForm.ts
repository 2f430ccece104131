import { z } from 'zod'
import { EMPTY_FIELD, text } from '../../lib/text'
import type { Qualification, QualificationSave } from './api'

/** A cartography, a group or a module, as the pickers show and hold it. */
export interface Named {
  id: number
  name: string
}

const named = z.object({ id: z.number(), name: z.string() })
const atLeastOne = () => z.array(named).min(1, EMPTY_FIELD)

/**
 * The qualification form (spec 2 §5 Qualification): the name follows the general text rule (not empty,
 * no whitespace at either end); groups and modules are required, at least one of each.
 */
export const qualificationSchema = z.object({
  name: text(),
  cartographies: z.array(named),
  qualifiableGroups: atLeastOne(),
  modules: atLeastOne(),
})

export type QualificationForm = z.infer<typeof qualificationSchema>

export const EMPTY_FORM: QualificationForm = { name: '', cartographies: [], qualifiableGroups: [], modules: [] }

export function formFromQualification(qualification: Qualification): QualificationForm {
  const pick = ({ id, name }: Named) => ({ id, name })
  return {
    name: qualification.name,
    cartographies: qualification.cartographies.map(pick),
    qualifiableGroups: qualification.qualifiableGroups.map(pick),
    modules: qualification.modules.map(pick),
  }
}

/** The save payload: ids only, modules in the order chosen. */
export function savePayload(form: QualificationForm): QualificationSave {
  const ids = (items: Named[]) => items.map((item) => item.id)
  return { name: form.name, cartographies: ids(form.cartographies), qualifiableGroups: ids(form.qualifiableGroups), modules: ids(form.modules) }
}
