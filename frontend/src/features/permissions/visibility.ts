import type { AllowedItems, TreeNode } from './api'

/** What the screen edits of a group's visibility: the switch and the checked cartographies. */
export interface Draft {
  restricted: boolean
  /** Cartography ids, ascending. */
  checked: number[]
}

const ascending = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b)

export function draftOf(saved: AllowedItems): Draft {
  return {
    restricted: saved.restricted,
    checked: ascending(saved.items.filter((item) => item.itemType === 'cartography').map((item) => item.itemId)),
  }
}

/** An unrestricted group sees everything whatever is checked: only a restricted one's checks count. */
export function isDirty(draft: Draft, saved: AllowedItems): boolean {
  const before = draftOf(saved)
  if (draft.restricted !== before.restricted) return true
  return draft.restricted && draft.checked.join() !== before.checked.join()
}

/** A restricted group must see at least one item: without any, the server would make it unrestricted. */
export function isSavable(draft: Draft, saved: AllowedItems): boolean {
  return !draft.restricted || draft.checked.length > 0 || saved.items.some((item) => item.itemType !== 'cartography')
}

/**
 * The body of the save: the checked cartographies, and the group's items of other types kept as they
 * were (this screen does not edit them); nothing when the group is unrestricted.
 */
export function payloadOf(draft: Draft, saved: AllowedItems): AllowedItems {
  if (!draft.restricted) return { restricted: false, items: [] }
  return {
    restricted: true,
    items: [
      ...draft.checked.map((itemId) => ({ itemType: 'cartography' as const, itemId })),
      ...saved.items.filter((item) => item.itemType !== 'cartography'),
    ],
  }
}

export function toggled(draft: Draft, ids: number[], checked: boolean): Draft {
  const next = new Set(draft.checked)
  ids.forEach((id) => (checked ? next.add(id) : next.delete(id)))
  return { ...draft, checked: ascending(next) }
}

export function cartographiesOf(site: TreeNode): TreeNode[] {
  return site.children.filter((node) => node.type === 'cartography')
}
