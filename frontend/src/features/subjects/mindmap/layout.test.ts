import { describe, expect, it } from 'vitest'
import { dropTarget, layoutMindMap, neighbour, NODE_HEIGHT, NODE_WIDTH, subtreeCodes, type TreeNode } from './layout'

const node = (code: number, parentCode: number | null, position = 0): TreeNode => ({ code, parentCode, position })

/** A main node with four children (two a side); 1 has three children, 3 has two, 11 has one. */
const TREE = [
  node(0, null),
  node(1, 0, 0),
  node(2, 0, 1),
  node(3, 0, 2),
  node(4, 0, 3),
  node(10, 1, 0),
  node(11, 1, 1),
  node(12, 1, 2),
  node(30, 3, 0),
  node(31, 3, 1),
  node(110, 11, 0),
]

describe('the mind-map layout', () => {
  const placements = layoutMindMap(TREE)

  it('puts the main node at the centre, the first half of its children to the right and the rest to the left', () => {
    expect(placements.get(0)).toMatchObject({ x: 0, y: 0, side: 'centre', depth: 0 })
    expect([1, 2].map((code) => placements.get(code)?.side)).toEqual(['right', 'right'])
    expect([3, 4].map((code) => placements.get(code)?.side)).toEqual(['left', 'left'])
    for (const code of [1, 2, 10, 11, 12, 110]) expect(placements.get(code)?.x).toBeGreaterThan(0)
    for (const code of [3, 4, 30, 31]) expect(placements.get(code)?.x).toBeLessThan(0)
    // Deeper nodes lie further out.
    expect(placements.get(110)?.x).toBeGreaterThan(placements.get(11)?.x ?? Infinity)
    expect(placements.get(30)?.x).toBeLessThan(placements.get(3)?.x ?? -Infinity)
  })

  it('keeps the order of siblings from top to bottom on both sides', () => {
    const ys = (codes: number[]) => codes.map((code) => placements.get(code)?.y ?? NaN)
    const ascending = (values: number[]) => values.every((value, index) => index === 0 || value > values[index - 1])
    expect(ascending(ys([1, 2]))).toBe(true)
    expect(ascending(ys([3, 4]))).toBe(true)
    expect(ascending(ys([10, 11, 12]))).toBe(true)
    expect(ascending(ys([30, 31]))).toBe(true)
  })

  it('never lets two nodes overlap', () => {
    const all = [...placements.values()]
    expect(all).toHaveLength(TREE.length)
    for (const a of all)
      for (const b of all)
        if (a !== b) expect(Math.abs(a.x - b.x) >= NODE_WIDTH || Math.abs(a.y - b.y) >= NODE_HEIGHT).toBe(true)
  })

  it('orders children by position, whatever their order in the list', () => {
    const shuffled = layoutMindMap([node(0, null), node(7, 0, 1), node(5, 0, 0), node(9, 5, 1), node(8, 5, 0)])
    expect(shuffled.get(5)?.side).toBe('right')
    expect(shuffled.get(7)?.side).toBe('left')
    expect(shuffled.get(8)?.y).toBeLessThan(shuffled.get(9)?.y ?? -Infinity)
  })

  it('draws a lone main node, and leaves out nodes whose parent is missing', () => {
    expect([...layoutMindMap([node(0, null)]).keys()]).toEqual([0])
    expect([...layoutMindMap([node(0, null), node(1, 0), node(5, 4)]).keys()].sort()).toEqual([0, 1])
    expect(layoutMindMap([]).size).toBe(0)
  })
})

describe('dropping a node', () => {
  const placements = layoutMindMap(TREE)
  const at = (code: number) => ({ x: placements.get(code)?.x ?? NaN, y: placements.get(code)?.y ?? NaN })

  it('targets the node under the dragged one', () => {
    expect(dropTarget(TREE, placements, 30, at(2))).toBe(2)
    expect(dropTarget(TREE, placements, 30, { x: at(0).x + NODE_WIDTH / 2 - 1, y: 0 })).toBe(0)
  })

  it('is cancelled on nothing, on the node itself and on its own subtree', () => {
    expect(dropTarget(TREE, placements, 30, { x: 10_000, y: 10_000 })).toBeUndefined()
    expect(dropTarget(TREE, placements, 1, at(1))).toBeUndefined()
    expect(dropTarget(TREE, placements, 1, at(11))).toBeUndefined()
    expect(dropTarget(TREE, placements, 1, at(110))).toBeUndefined()
  })

  it('knows a subtree', () => {
    expect([...subtreeCodes(TREE, 1)].sort((a, b) => a - b)).toEqual([1, 10, 11, 12, 110])
  })
})

describe('arrow navigation', () => {
  const placements = layoutMindMap(TREE)
  const go = (code: number, direction: Parameters<typeof neighbour>[3]) => neighbour(TREE, placements, code, direction)

  it('goes from the main node to the first child on each side', () => {
    expect(go(0, 'right')).toBe(1)
    expect(go(0, 'left')).toBe(3)
    expect(go(0, 'up')).toBeUndefined()
  })

  it('goes outwards to the first child and inwards to the parent, mirrored on the left side', () => {
    expect(go(1, 'right')).toBe(10)
    expect(go(1, 'left')).toBe(0)
    expect(go(3, 'left')).toBe(30)
    expect(go(3, 'right')).toBe(0)
    expect(go(110, 'right')).toBeUndefined()
  })

  it('goes up and down among siblings of the same side', () => {
    expect(go(10, 'down')).toBe(11)
    expect(go(11, 'up')).toBe(10)
    expect(go(12, 'down')).toBeUndefined()
    expect(go(2, 'down')).toBeUndefined()
    expect(go(3, 'up')).toBeUndefined()
    expect(go(4, 'up')).toBe(3)
  })
})
