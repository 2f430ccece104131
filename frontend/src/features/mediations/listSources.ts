import type { ValueSources } from '../../components/lists/types'
import { userSource } from '../../components/lists/userSource'

/** Where the mediation list's id criteria find their members. */
export const MEDIATION_FILTER_SOURCES: ValueSources = {
  creator: userSource,
  mediator: userSource,
  participants: userSource,
}
