import { type HierarchyNode, type HierarchyPointNode, stratify, tree } from 'd3-hierarchy'

/** What the layout needs of a node: live and standardized nodes both have it. */
export interface TreeNode {
  code: number
  parentCode: number | null
  position: number
}

export type Side = 'centre' | 'right' | 'left'

/** A node's centre in the canvas, the main node at the origin. */
export interface Placement {
  code: number
  x: number
  y: number
  side: Side
  depth: number
}

export const NODE_WIDTH = 200
export const NODE_HEIGHT = 64
/** Room between two columns (depths) and between two rows (nodes side by side in a column). */
const COLUMN = NODE_WIDTH + 80
const ROW = NODE_HEIGHT + 20

/** The children of each node by its code, in their order among siblings. */
export function childrenByParent<T extends TreeNode>(nodes: readonly T[]): Map<number, T[]> {
  const children = new Map<number, T[]>()
  for (const node of nodes) {
    if (node.parentCode === null) continue
    const siblings = children.get(node.parentCode) ?? []
    siblings.push(node)
    children.set(node.parentCode, siblings)
  }
  for (const siblings of children.values()) siblings.sort((a, b) => a.position - b.position || a.code - b.code)
  return children
}

/** The nodes reachable from the main node (the one without a parent): a node whose parent is missing cannot be drawn. */
export function reachable<T extends TreeNode>(nodes: readonly T[]): T[] {
  const root = nodes.find((node) => node.parentCode === null)
  if (!root) return []
  const children = childrenByParent(nodes)
  const found: T[] = []
  const visit = (node: T) => {
    found.push(node)
    children.get(node.code)?.forEach(visit)
  }
  visit(root)
  return found
}

/** Which side of the main node each of its children goes: the first half to the right, the rest to the left. */
export function sideOfMainChildren(count: number, index: number): Exclude<Side, 'centre'> {
  return index < Math.ceil(count / 2) ? 'right' : 'left'
}

function placeSide(root: HierarchyNode<TreeNode>, side: Exclude<Side, 'centre'>, placements: Map<number, Placement>) {
  const laid: HierarchyPointNode<TreeNode> = tree<TreeNode>()
    .nodeSize([ROW, COLUMN])
    .separation((a, b) => (a.parent === b.parent ? 1 : 1.25))(root)
  // d3 lays the breadth on x and the depth on y: the canvas turns it so that depth runs sideways.
  const direction = side === 'right' ? 1 : -1
  for (const node of laid.descendants()) {
    if (node.depth === 0) continue
    placements.set(node.data.code, { code: node.data.code, x: direction * node.y, y: node.x, side, depth: node.depth })
  }
}

/**
 * The classic two-sided mind map: the main node at the centre, the first half of its children and
 * their subtrees to its right, the others to its left, each side a tidy tree (d3-hierarchy) whose
 * siblings keep their order from top to bottom.
 */
export function layoutMindMap(nodes: readonly TreeNode[]): Map<number, Placement> {
  const drawn = reachable(nodes)
  const placements = new Map<number, Placement>()
  if (drawn.length === 0) return placements
  const children = childrenByParent(drawn)
  const hierarchy = stratify<TreeNode>()
    .id((node) => String(node.code))
    .parentId((node) => (node.parentCode === null ? null : String(node.parentCode)))(drawn)
  const order = (node: HierarchyNode<TreeNode>) => node.data.position * 1e6 + node.data.code
  hierarchy.sort((a, b) => order(a) - order(b))
  const main = hierarchy.data
  placements.set(main.code, { code: main.code, x: 0, y: 0, side: 'centre', depth: 0 })
  const mainChildren = children.get(main.code) ?? []
  for (const side of ['right', 'left'] as const) {
    const kept = new Set(mainChildren.filter((_child, index) => sideOfMainChildren(mainChildren.length, index) === side).map((child) => child.code))
    if (kept.size === 0) continue
    // One side's tree: the main node with only that side's children (copy() keeps the original whole).
    const sideRoot = hierarchy.copy()
    sideRoot.children = sideRoot.children?.filter((child) => kept.has(child.data.code))
    placeSide(sideRoot, side, placements)
  }
  return placements
}

/** The code of a node and of every node under it. */
export function subtreeCodes(nodes: readonly TreeNode[], code: number): Set<number> {
  const children = childrenByParent(nodes)
  const codes = new Set<number>()
  const visit = (current: number) => {
    codes.add(current)
    children.get(current)?.forEach((child) => visit(child.code))
  }
  visit(code)
  return codes
}

/**
 * The node a dragged node was dropped on: the one whose box holds the dragged node's centre,
 * never the dragged node itself nor one under it (a node cannot go under its own subtree).
 */
export function dropTarget(nodes: readonly TreeNode[], placements: Map<number, Placement>, dragged: number, centre: { x: number; y: number }): number | undefined {
  const excluded = subtreeCodes(nodes, dragged)
  for (const placement of placements.values()) {
    if (excluded.has(placement.code)) continue
    if (Math.abs(centre.x - placement.x) <= NODE_WIDTH / 2 && Math.abs(centre.y - placement.y) <= NODE_HEIGHT / 2) return placement.code
  }
  return undefined
}

export type Direction = 'up' | 'down' | 'left' | 'right'

/**
 * The node the arrows lead to from `code`, as the map is drawn: towards the outside goes to the
 * first child, towards the main node to the parent, up and down to the previous and next sibling
 * on the same side. From the main node, right and left go to the first child on that side.
 */
export function neighbour(nodes: readonly TreeNode[], placements: Map<number, Placement>, code: number, direction: Direction): number | undefined {
  const here = placements.get(code)
  if (!here) return undefined
  const node = nodes.find((candidate) => candidate.code === code)
  const children = childrenByParent(nodes)
  const ownChildren = children.get(code) ?? []
  if (here.side === 'centre') {
    if (direction === 'up' || direction === 'down') return undefined
    return ownChildren.find((child) => placements.get(child.code)?.side === direction)?.code
  }
  const outward = here.side
  if (direction === outward) return ownChildren[0]?.code
  if (direction === 'left' || direction === 'right') return node?.parentCode ?? undefined
  const siblings = (children.get(node?.parentCode ?? -1) ?? []).filter((sibling) => placements.get(sibling.code)?.side === here.side)
  const index = siblings.findIndex((sibling) => sibling.code === code)
  return siblings[index + (direction === 'up' ? -1 : 1)]?.code
}
