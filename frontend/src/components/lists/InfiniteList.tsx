/**
 * InfiniteList: the items of a list in a virtualised column that scrolls with the window and asks for
 * the next page when its end comes into view.
 *
 * Props:
 * - items, itemKey(item), renderItem(item, { targeted }): the loaded items and how each is drawn.
 * - hasMore, loadingMore, onLoadMore(): paging; settled: the items are those of the current query
 *   (not a previous one's, shown while it loads).
 * - target?: the id of an item to bring into view: pages are loaded until it is among the items, then
 *   it is scrolled to the middle of the window and outlined. onTargetMissing() is called when every
 *   page is loaded without it.
 */
import Box from '@mui/material/Box'
import { type ReactNode, useCallback, useEffect, useRef } from 'react'
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso'
import type { ValueId } from '../../lib/querylang/types'
import { Loading } from '../Loading'

export interface InfiniteListProps<T> {
  items: T[]
  itemKey: (item: T) => ValueId
  renderItem: (item: T, state: { targeted: boolean }) => ReactNode
  hasMore: boolean
  loadingMore: boolean
  settled: boolean
  onLoadMore: () => void
  target?: ValueId
  onTargetMissing?: () => void
}

/** Rendered beyond the window, so that scrolling shows drawn items. */
const OVERSCAN_PX = 600

interface FooterContext {
  loadingMore: boolean
}

function Footer({ context }: { context?: FooterContext }) {
  return context?.loadingMore ? <Loading /> : null
}

const COMPONENTS = { Footer }

export function InfiniteList<T>({
  items,
  itemKey,
  renderItem,
  hasMore,
  loadingMore,
  settled,
  onLoadMore,
  target,
  onTargetMissing,
}: InfiniteListProps<T>) {
  const list = useRef<VirtuosoHandle>(null)
  const reached = useRef<ValueId>(undefined)
  // The parent's callbacks change at each render; the effect below must not run again for that.
  const callbacks = useRef({ onLoadMore, onTargetMissing })
  useEffect(() => {
    callbacks.current = { onLoadMore, onTargetMissing }
  })
  const targetIndex = target === undefined ? -1 : items.findIndex((item) => String(itemKey(item)) === String(target))
  // On the first page the list is drawn and measured in the same moments as the scroll is asked for,
  // which the list then loses: the targeted item, once drawn, brings itself to the middle (once).
  const centred = useRef<ValueId>(undefined)
  const centre = useCallback(
    (element: HTMLElement | null) => {
      if (!element || target === undefined || centred.current === target) return
      centred.current = target
      element.scrollIntoView({ block: 'center' })
    },
    [target],
  )

  useEffect(() => {
    if (!settled || target === undefined || reached.current === target) return
    if (targetIndex >= 0) {
      // The list takes in the page that holds the target during this render: scroll once it has.
      const frame = requestAnimationFrame(() => {
        reached.current = target
        list.current?.scrollToIndex({ index: targetIndex, align: 'center' })
      })
      return () => cancelAnimationFrame(frame)
    }
    if (hasMore) {
      if (!loadingMore) callbacks.current.onLoadMore()
    } else {
      reached.current = target
      callbacks.current.onTargetMissing?.()
    }
  }, [settled, target, targetIndex, hasMore, loadingMore])

  return (
    <Virtuoso
      ref={list}
      useWindowScroll
      data={items}
      increaseViewportBy={OVERSCAN_PX}
      computeItemKey={(_index, item) => itemKey(item)}
      endReached={() => settled && hasMore && !loadingMore && onLoadMore()}
      itemContent={(index, item) => {
        const targeted = index === targetIndex
        return (
          <Box sx={{ pb: 1 }} data-targeted={targeted || undefined} ref={targeted ? centre : undefined}>
            <Box sx={targeted ? { outline: 2, outlineColor: 'primary.main', outlineOffset: 2, borderRadius: 1 } : undefined}>
              {renderItem(item, { targeted })}
            </Box>
          </Box>
        )
      }}
      context={{ loadingMore }}
      components={COMPONENTS}
    />
  )
}
