import { queryOptions } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { LOAD_FAILURES_SHOWN_BY_PAGE } from '../../lib/loadFailures'

export type QrLabel = components['schemas']['QrLabel']
export type LabelItemType = QrLabel['itemType']

/** The item's label as the server makes it: name, context, the address of its page and its QR code. */
export const qrLabelQuery = (itemType: LabelItemType, itemId: number) =>
  queryOptions({
    queryKey: queryKeys.mapping.label(itemType, itemId),
    queryFn: () => data(api.GET('/backend/api/v2/label/{itemType}/{itemId}', { params: { path: { itemType, itemId } } })),
    // The dialog says it could not be read (a hidden or removed item).
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
  })
