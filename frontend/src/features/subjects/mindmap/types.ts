// The mind map's JSON (backend/src/spot/subjects/mindmap/schemas.py).
export type NodeStatus = 'empty' | 'inProgress' | 'toValidate' | 'validated'

export interface Person {
  id: number
  name: string
}

export interface MindMapNode {
  id: number
  code: number
  /** Null for the main node (code 0) only. */
  parentCode: number | null
  position: number
  name: string
  text: string
  status: NodeStatus
  createdBy: Person | null
  createdAt: string | null
  updatedBy: Person | null
  updatedAt: string | null
  can: NodeCan
}

/** What the user may do with one node, as the server decides it (a validated node's content needs the right to validate). */
export interface NodeCan {
  /** Change its text (its name too when `rename`). */
  edit: boolean
  /** Change its name; the main node's is the subject's. */
  rename: boolean
  /** Delete it with its subtree; never the main node. */
  delete: boolean
}

export interface MindMapCan {
  edit: boolean
  validate: boolean
  editDiagram: boolean
}

export interface Diagram {
  name: string
  mediaType: 'image/png' | 'image/jpeg' | 'application/pdf'
  url: string
}

export interface MindMap {
  subjectId: number
  subjectName: string
  subjectCode: string
  version: number
  lastMindmapUpdate: string | null
  standardized: boolean
  diagram: Diagram | null
  /** The main node first, parents before their children, siblings by position. */
  nodes: MindMapNode[]
  can: MindMapCan
}

export interface MindMapChange {
  version: number
  code: number
}

export type StandardizedNode = Pick<MindMapNode, 'code' | 'parentCode' | 'position' | 'name' | 'text' | 'status'>

export type DifferenceKind = 'added' | 'removed' | 'renamed' | 'textChanged' | 'statusChanged' | 'moved'

export interface Difference {
  code: number
  kinds: DifferenceKind[]
}

export interface StandardizedMindMap {
  standardizedAt: string
  standardizedBy: Person | null
  comment: string
  nodes: StandardizedNode[]
  differences: Difference[]
}
