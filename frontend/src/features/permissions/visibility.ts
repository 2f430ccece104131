import type { AllowedItem, AllowedItems, TreeNode } from './api'

/** The item types this screen ticks; a group's items of other types are kept as they are. */
export type TickedType = 'cartography' | 'function' | 'activity'
const TICKED: TickedType[] = ['cartography', 'function', 'activity']
const isTicked = (item: AllowedItem) => (TICKED as string[]).includes(item.itemType)

/**
 * What the screen edits of a group's visibility: the switch and the ticked items (the rule is the
 * server's, spot.mapping.policy): a ticked cartography is seen whole; ticked functions and activities
 * limit their cartography to them (an activity with everything below it), the subjects seen being
 * those of the ticked functions within the ticked activities; a cartography with nothing ticked is
 * not seen.
 */
export interface Draft {
  restricted: boolean
  /** Ticked ids of each type, ascending. */
  cartography: number[]
  function: number[]
  activity: number[]
}

const ascending = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b)

export function draftOf(saved: AllowedItems): Draft {
  const of = (type: TickedType) => ascending(saved.items.filter((item) => item.itemType === type).map((item) => item.itemId))
  return { restricted: saved.restricted, cartography: of('cartography'), function: of('function'), activity: of('activity') }
}

const sameTicks = (a: Draft, b: Draft) => TICKED.every((type) => a[type].join() === b[type].join())

/** An unrestricted group sees everything whatever is ticked: only a restricted one's ticks count. */
export function isDirty(draft: Draft, saved: AllowedItems): boolean {
  const before = draftOf(saved)
  if (draft.restricted !== before.restricted) return true
  return draft.restricted && !sameTicks(draft, before)
}

/** A restricted group must see at least one item: without any, the server would make it unrestricted. */
export function isSavable(draft: Draft, saved: AllowedItems): boolean {
  return !draft.restricted || TICKED.some((type) => draft[type].length > 0) || saved.items.some((item) => !isTicked(item))
}

/** The items of other types than those ticked here, which the save keeps. */
export const otherItems = (saved: AllowedItems) => saved.items.filter((item) => !isTicked(item))

/** The body of the save: the ticked items, and the group's items of other types kept as they were. */
export function payloadOf(draft: Draft, saved: AllowedItems): AllowedItems {
  if (!draft.restricted) return { restricted: false, items: [] }
  return {
    restricted: true,
    items: [...TICKED.flatMap((itemType) => draft[itemType].map((itemId) => ({ itemType, itemId }))), ...otherItems(saved)],
  }
}

export function cartographiesOf(site: TreeNode): TreeNode[] {
  return site.children.filter((node) => node.type === 'cartography')
}

/** The map's tree, looked up by id. */
export interface MapIndex {
  cartographies: number[]
  /** The cartography of each function and activity. */
  cartographyOf: Map<number, number>
  /** The parent activity of each sub-activity. */
  parentOf: Map<number, number>
  /** The activities right under each cartography and activity. */
  activitiesUnder: Map<number, number[]>
  functionsOf: Map<number, number[]>
}

export function indexOf(tree: TreeNode[]): MapIndex {
  const index: MapIndex = { cartographies: [], cartographyOf: new Map(), parentOf: new Map(), activitiesUnder: new Map(), functionsOf: new Map() }
  const walk = (node: TreeNode, cartography: number) => {
    const activities = node.children.filter((child) => child.type === 'activity')
    index.activitiesUnder.set(node.id, activities.map((a) => a.id))
    for (const activity of activities) {
      index.cartographyOf.set(activity.id, cartography)
      if (node.type === 'activity') index.parentOf.set(activity.id, node.id)
      walk(activity, cartography)
    }
  }
  for (const cartography of tree.flatMap(cartographiesOf)) {
    index.cartographies.push(cartography.id)
    const functions = cartography.children.filter((child) => child.type === 'function').map((f) => f.id)
    index.functionsOf.set(cartography.id, functions)
    functions.forEach((id) => index.cartographyOf.set(id, cartography.id))
    walk(cartography, cartography.id)
  }
  return index
}

/** What the group sees of a cartography: all of it, part of it (ticked items), or nothing. */
export type CartographyState = 'whole' | 'limited' | 'none'

export function cartographyState(draft: Draft, index: MapIndex, cartography: number): CartographyState {
  if (draft.cartography.includes(cartography)) return 'whole'
  const inside = (id: number) => index.cartographyOf.get(id) === cartography
  return draft.function.some(inside) || draft.activity.some(inside) ? 'limited' : 'none'
}

function ancestors(index: MapIndex, activity: number): number[] {
  const above: number[] = []
  for (let parent = index.parentOf.get(activity); parent !== undefined && !above.includes(parent); parent = index.parentOf.get(parent)) {
    above.push(parent)
  }
  return above
}

function descendants(index: MapIndex, activity: number): number[] {
  const below: number[] = []
  const stack = [...(index.activitiesUnder.get(activity) ?? [])]
  while (stack.length > 0) {
    const id = stack.pop() as number
    if (below.includes(id)) continue
    below.push(id)
    stack.push(...(index.activitiesUnder.get(id) ?? []))
  }
  return below
}

/** Whether the item's box shows ticked: itself, its cartography or an activity above it is ticked. */
export function isItemTicked(draft: Draft, index: MapIndex, node: TreeNode): boolean {
  const cartography = index.cartographyOf.get(node.id)
  if (cartography !== undefined && draft.cartography.includes(cartography)) return true
  if (node.type === 'function') return draft.function.includes(node.id)
  return draft.activity.includes(node.id) || ancestors(index, node.id).some((id) => draft.activity.includes(id))
}

/** An activity not ticked but with ticked activities below it. */
export function hasTickedBelow(draft: Draft, index: MapIndex, activity: number): boolean {
  return descendants(index, activity).some((id) => draft.activity.includes(id))
}

function withTicks(draft: Draft, type: TickedType, ids: Iterable<number>): Draft {
  return { ...draft, [type]: ascending(ids) }
}

/** Tick or untick whole cartographies; their own ticked items go (a whole one needs none). */
export function setCartographies(draft: Draft, index: MapIndex, cartographies: number[], ticked: boolean): Draft {
  const inside = (id: number) => cartographies.includes(index.cartographyOf.get(id) ?? -1)
  let next = withTicks(draft, 'function', draft.function.filter((id) => !inside(id)))
  next = withTicks(next, 'activity', draft.activity.filter((id) => !inside(id)))
  const others = draft.cartography.filter((id) => !cartographies.includes(id))
  return withTicks(next, 'cartography', ticked ? [...others, ...cartographies] : others)
}

/** Everything of `under` (an activity or a cartography) except `activity` and what is below it, as
 * the fewest activities: the siblings of each activity on the way down to it. */
function allBut(index: MapIndex, under: number, activity: number): number[] {
  const path = [activity, ...ancestors(index, activity)]
  const top = path.indexOf(under)
  const way = (top === -1 ? path : path.slice(0, top)).reverse()
  return way.flatMap((id) => {
    const parent = index.parentOf.get(id)
    const siblings = index.activitiesUnder.get(parent ?? (index.cartographyOf.get(id) as number)) ?? []
    return siblings.filter((sibling) => sibling !== id)
  })
}

export function setFunction(draft: Draft, index: MapIndex, fn: number, ticked: boolean): Draft {
  const cartography = index.cartographyOf.get(fn) as number
  if (draft.cartography.includes(cartography)) {
    if (ticked) return draft
    // A whole cartography becomes limited to its other functions.
    const others = (index.functionsOf.get(cartography) ?? []).filter((id) => id !== fn)
    return withTicks(withTicks(draft, 'cartography', draft.cartography.filter((id) => id !== cartography)), 'function', [...draft.function, ...others])
  }
  return withTicks(draft, 'function', ticked ? [...draft.function, fn] : draft.function.filter((id) => id !== fn))
}

export function setActivity(draft: Draft, index: MapIndex, activity: number, ticked: boolean): Draft {
  const cartography = index.cartographyOf.get(activity) as number
  const below = descendants(index, activity)
  if (ticked) {
    if (isItemTicked(draft, index, { id: activity, type: 'activity', code: '', name: '', children: [] })) return draft
    return withTicks(draft, 'activity', [...draft.activity.filter((id) => !below.includes(id)), activity])
  }
  if (draft.cartography.includes(cartography)) {
    // A whole cartography becomes limited to its other activities.
    const next = withTicks(draft, 'cartography', draft.cartography.filter((id) => id !== cartography))
    return withTicks(next, 'activity', [...draft.activity, ...allBut(index, cartography, activity)])
  }
  if (draft.activity.includes(activity)) return withTicks(draft, 'activity', draft.activity.filter((id) => id !== activity))
  // Ticked through an activity above it: that one gives way to the rest of what it held.
  const holder = ancestors(index, activity).find((id) => draft.activity.includes(id))
  if (holder === undefined) return draft
  return withTicks(draft, 'activity', [...draft.activity.filter((id) => id !== holder), ...allBut(index, holder, activity)])
}

/**
 * The draft when limitation is turned on: what the group sees now, so that nothing disappears until
 * the administrator unticks it — its saved items if it was limited already, else every cartography.
 */
export function startLimiting(draft: Draft, saved: AllowedItems, index: MapIndex): Draft {
  if (saved.restricted) return { ...draftOf(saved), restricted: true }
  return { ...draft, restricted: true, cartography: ascending(index.cartographies), function: [], activity: [] }
}
