import type { components } from '../../../api/schema'
import type { CourseLeaf, CourseNode } from '../../../components/courses/api'

/**
 * A unit's progress (GET /lms/courses/{id}/progress): its status, its grade out of 10, whether a
 * suspended attempt resumes, and the navigation its block allows.
 */
export type UnitProgress = components['schemas']['UnitProgress']
export type UnitStatus = UnitProgress['status']

/** A unit of the table of contents, in the course's order, with the name of its block. */
export interface TocUnit {
  leaf: CourseLeaf
  block: string | undefined
}

/** The units of a course in reading order (depth first), each with the name of the block holding it (none at the top). */
export function unitsOf(root: CourseNode): TocUnit[] {
  const units: TocUnit[] = []
  const visit = (node: CourseNode, block: string | undefined, depth: number) => {
    if (node.type !== 'group') {
      units.push({ leaf: node, block })
      return
    }
    node.children.forEach((child) => visit(child, depth === 0 ? undefined : node.name, depth + 1))
  }
  visit(root, undefined, 0)
  return units
}

const DONE: UnitStatus[] = ['completed', 'passed']

/**
 * The unit the player opens: the one asked for, else the first one suspended (resumed where the
 * learner stopped), else the first not done, else the first.
 */
export function firstUnit(units: TocUnit[], progress: Map<number, UnitProgress>, asked: number | undefined): number | undefined {
  if (asked !== undefined && units.some((unit) => unit.leaf.id === asked)) return asked
  const suspended = units.find((unit) => progress.get(unit.leaf.id)?.resumable)
  const notDone = units.find((unit) => !DONE.includes(progress.get(unit.leaf.id)?.status ?? 'notAttempted'))
  return (suspended ?? notDone ?? units[0])?.leaf.id
}

/** The unit before or after the current one when its block allows flow (Previous, Next), undefined otherwise. */
export function neighbour(units: TocUnit[], progress: Map<number, UnitProgress>, currentId: number, step: -1 | 1): number | undefined {
  const at = units.findIndex((unit) => unit.leaf.id === currentId)
  if (at < 0 || !(progress.get(currentId)?.flow ?? false)) return undefined
  return units[at + step]?.leaf.id
}

/** Whether the learner may open a unit from the table of contents (choice): always the current one, the others when their block allows it. */
export const canChoose = (progress: Map<number, UnitProgress>, itemId: number, currentId: number | undefined) =>
  itemId === currentId || (progress.get(itemId)?.choice ?? true)

/** What the SCO's runtime posts to the player (src/lms-runtime/runtime.ts, RuntimeMessage). */
export interface RuntimeMessage {
  event: 'initialized' | 'committed' | 'terminated' | 'unavailable' | 'left'
  navRequest?: string
}

const EVENTS = new Set(['initialized', 'committed', 'terminated', 'unavailable', 'left'])

/** The runtime's message in a `message` event, undefined for any other message. */
export function runtimeMessage(data: unknown): RuntimeMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const { source, event, navRequest } = data as Record<string, unknown>
  if (source !== 'spot-scorm' || typeof event !== 'string' || !EVENTS.has(event)) return undefined
  return { event: event as RuntimeMessage['event'], ...(typeof navRequest === 'string' ? { navRequest } : {}) }
}

/** The unit a SCORM 2004 `{target=ID}choice` or `{target=ID}jump` request names (its manifest identifier). */
export function requestedTarget(navRequest: string | undefined): string | undefined {
  return navRequest?.match(/^\{target=([^}]+)\}(choice|jump)$/)?.[1]
}

/** Where a SCO's navigation request at its end leads: the next or previous unit, or nowhere (the player shows the unit closed). */
export function afterTermination(navRequest: string | undefined): -1 | 1 | undefined {
  if (navRequest === 'continue') return 1
  if (navRequest === 'previous') return -1
  return undefined
}
