import { describe, expect, it } from 'vitest'
import type { AllowedItems, TreeNode } from './api'
import {
  type Draft,
  cartographyState,
  draftOf,
  hasTickedBelow,
  indexOf,
  isDirty,
  isItemTicked,
  isSavable,
  payloadOf,
  setActivity,
  setCartographies,
  setFunction,
  startLimiting,
} from './visibility'

const node = (id: number, type: TreeNode['type'], children: TreeNode[] = []): TreeNode => ({ id, type, code: `N${id}`, name: `N${id}`, children })
// Site 1: cartography 11 (activities 111 > (112, 113 > 114), 115; functions 116, 117), cartography 12 (activity 121).
const tree = [
  node(1, 'site', [
    node(11, 'cartography', [
      node(111, 'activity', [node(112, 'activity'), node(113, 'activity', [node(114, 'activity')])]),
      node(115, 'activity'),
      node(116, 'function'),
      node(117, 'function'),
    ]),
    node(12, 'cartography', [node(121, 'activity')]),
  ]),
]
const index = indexOf(tree)
const byId = new Map<number, TreeNode>()
const walk = (nodes: TreeNode[]) => nodes.forEach((n) => (byId.set(n.id, n), walk(n.children)))
walk(tree)
const ticked = (draft: Draft, id: number) => isItemTicked(draft, index, byId.get(id) as TreeNode)

const saved: AllowedItems = {
  restricted: true,
  items: [
    { itemType: 'cartography', itemId: 12 },
    { itemType: 'function', itemId: 116 },
    { itemType: 'activity', itemId: 113 },
    { itemType: 'subject', itemId: 40 },
  ],
}
const none: Draft = { restricted: true, cartography: [], function: [], activity: [] }

describe('visibility draft', () => {
  it('starts from the saved items of each type, in id order', () => {
    expect(draftOf(saved)).toEqual({ restricted: true, cartography: [12], function: [116], activity: [113] })
    expect(draftOf({ restricted: false, items: [] })).toEqual({ restricted: false, cartography: [], function: [], activity: [] })
  })

  it('tells a cartography seen whole, limited to some items, or not at all', () => {
    const draft = draftOf(saved)
    expect(cartographyState(draft, index, 12)).toBe('whole')
    expect(cartographyState(draft, index, 11)).toBe('limited')
    expect(cartographyState(none, index, 11)).toBe('none')
  })

  it('shows an activity ticked with the one above it, and one above a ticked one as partly ticked', () => {
    const draft = draftOf(saved)
    expect([113, 114].map((id) => ticked(draft, id))).toEqual([true, true])
    expect([111, 112, 115].map((id) => ticked(draft, id))).toEqual([false, false, false])
    expect(hasTickedBelow(draft, index, 111)).toBe(true)
    expect(ticked(draft, 121)).toBe(true) // its cartography is whole
  })

  it('is dirty when the switch or, for a restricted group, the ticks differ', () => {
    const draft = draftOf(saved)
    expect(isDirty(draft, saved)).toBe(false)
    expect(isDirty(setFunction(draft, index, 117, true), saved)).toBe(true)
    expect(isDirty(setFunction(setFunction(draft, index, 117, true), index, 117, false), saved)).toBe(false)
    expect(isDirty({ ...draft, restricted: false }, saved)).toBe(true)
    const open: AllowedItems = { restricted: false, items: [] }
    expect(isDirty(setCartographies(draftOf(open), index, [11], true), open)).toBe(false)
  })

  it('saves the ticked items of every type and keeps the items of other types', () => {
    const draft = setActivity(draftOf(saved), index, 115, true)
    expect(payloadOf(draft, saved)).toEqual({
      restricted: true,
      items: [
        { itemType: 'cartography', itemId: 12 },
        { itemType: 'function', itemId: 116 },
        { itemType: 'activity', itemId: 113 },
        { itemType: 'activity', itemId: 115 },
        { itemType: 'subject', itemId: 40 },
      ],
    })
    expect(payloadOf({ ...draft, restricted: false }, saved)).toEqual({ restricted: false, items: [] })
  })

  it('refuses a restriction to nothing', () => {
    const only: AllowedItems = { restricted: true, items: [{ itemType: 'function', itemId: 116 }] }
    expect(isSavable(none, only)).toBe(false)
    expect(isSavable({ ...none, activity: [115] }, only)).toBe(true)
    expect(isSavable({ ...none, restricted: false }, only)).toBe(true)
    // Items of other types still restrict the group.
    expect(isSavable(none, saved)).toBe(true)
  })
})

describe('ticking', () => {
  it('a whole cartography drops its own ticked items, which it makes redundant', () => {
    const draft = setCartographies(draftOf(saved), index, [11], true)
    expect(draft).toMatchObject({ cartography: [11, 12], function: [], activity: [] })
    expect(setCartographies(draft, index, [11, 12], false)).toMatchObject({ cartography: [], function: [], activity: [] })
  })

  it('unticking a function of a whole cartography limits it to its other functions', () => {
    const draft = setFunction({ ...none, cartography: [11, 12] }, index, 116, false)
    expect(draft).toMatchObject({ cartography: [12], function: [117], activity: [] })
    expect(cartographyState(draft, index, 11)).toBe('limited')
  })

  it('unticking an activity of a whole cartography limits it to everything else, as the fewest activities', () => {
    const draft = setActivity({ ...none, cartography: [11] }, index, 114, false)
    // 114's siblings on the way down: 115 (beside 111), 112 (beside 113); 113 had only 114.
    expect(draft).toMatchObject({ cartography: [], function: [], activity: [112, 115] })
    expect([111, 112, 113, 114, 115].map((id) => ticked(draft, id))).toEqual([false, true, false, false, true])
  })

  it('unticking an activity ticked through the one above it ticks the rest of that one', () => {
    const draft = setActivity({ ...none, activity: [111] }, index, 112, false)
    expect(draft.activity).toEqual([113])
    expect(setActivity(draft, index, 113, false).activity).toEqual([])
  })

  it('ticking an activity drops the ticks below it', () => {
    const draft = setActivity({ ...none, activity: [112, 114] }, index, 111, true)
    expect(draft.activity).toEqual([111])
    expect(setActivity(draft, index, 112, true)).toBe(draft)
  })
})

describe('turning limitation on', () => {
  it('starts from everything an unrestricted group sees: every cartography ticked', () => {
    const open: AllowedItems = { restricted: false, items: [] }
    expect(startLimiting(draftOf(open), open, index)).toEqual({ restricted: true, cartography: [11, 12], function: [], activity: [] })
  })

  it('starts from the saved items of a group that was limited already', () => {
    const draft = startLimiting({ ...draftOf(saved), restricted: false }, saved, index)
    expect(draft).toEqual(draftOf(saved))
    expect(isDirty(draft, saved)).toBe(false)
  })
})
