import type { ValueId } from '../../lib/querylang/types'

/** A member an id or location criterion can hold, with what the user reads for it. */
export interface ValueOption {
  id: ValueId
  label: string
}

/**
 * Where an id or location field finds its members: `search` answers the options matching a text
 * (called at most every 500 ms, with at least one character), `labels` names members already chosen
 * (a filter read from the address holds ids only). Ids it does not name are shown as they are.
 */
export interface ValueSource {
  search: (text: string) => Promise<ValueOption[]>
  labels: (ids: ValueId[]) => Promise<ValueOption[]>
}

/** Value sources by field name. */
export type ValueSources = Partial<Record<string, ValueSource>>

/** How an entity's fields and enum values read, supplied by the area that lists the entity. */
export interface FieldLabels {
  /** The label of a field of the registry, e.g. "last_name" → "Last name". */
  fieldLabel: (field: string) => string
  /** The label of an enum value; the value itself when omitted. */
  enumLabel?: (field: string, value: string) => string
}
