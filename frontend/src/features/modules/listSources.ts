import { api, data } from '../../api/client'
import type { ValueSource, ValueSources } from '../../components/lists/types'
import { userSource } from '../../components/lists/userSource'
import { searchReferences } from '../../components/references/api'

const referenceLabel = (reference: { code: string; label: string }) => `${reference.code} — ${reference.label}`

/** Module references, whose codes are the ids of the list's reference criterion. */
const referenceSource: ValueSource = {
  search: async (text) => (await searchReferences('module', text)).map((reference) => ({ id: reference.code, label: referenceLabel(reference) })),
  labels: async (ids) => {
    const read = await Promise.all(
      ids.map((code) =>
        data(api.GET('/backend/api/v2/training/references/{type}/{code}', { params: { path: { type: 'module', code: String(code) } } })).catch(() => null),
      ),
    )
    return read.flatMap((reference) => (reference ? [{ id: reference.code, label: referenceLabel(reference) }] : []))
  },
}

/** Where the module list's id criteria find their members. */
export const MODULE_FILTER_SOURCES: ValueSources = {
  creator: userSource,
  reference: referenceSource,
}
