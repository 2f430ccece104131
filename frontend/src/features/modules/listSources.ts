import type { ValueSources } from '../../components/lists/types'
import { userSource } from '../../components/lists/userSource'

/** Where the module list's id criteria find their members. */
export const MODULE_FILTER_SOURCES: ValueSources = {
  creator: userSource,
}
