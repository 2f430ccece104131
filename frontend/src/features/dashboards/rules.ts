/** -1: a completion that cannot be computed (no element to do, no current path). */
export const NOT_QUANTIFIABLE = -1

export type CompletionLevel = 'high' | 'medium' | 'low' | 'none'

/** The level of a person's completion on the path dashboards (spec 2 §4): high above 66, medium 33 to 66, low under 33. */
export function completionLevel(completion: number): CompletionLevel {
  if (completion < 0) return 'none'
  if (completion > 66) return 'high'
  if (completion >= 33) return 'medium'
  return 'low'
}

/** The periodic modules' colours (spec 2 §9) as theme colours: the server says which applies. */
export const PERIODIC_COLOURS = { green: 'success', red: 'error', grey: 'secondary' } as const
