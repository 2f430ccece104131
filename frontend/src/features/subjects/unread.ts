import type { Visit } from './api'

/** When the user last visited each subject, by subject id. */
export type VisitDates = ReadonlyMap<number, string>

export function visitDates(visits: Visit[]): VisitDates {
  return new Map(visits.map((visit) => [visit.subjectId, visit.date]))
}

/** Unread: never visited, or its mind map changed since the last visit (spec 1 §2). */
export function isUnread(subject: { id: number; lastMindmapUpdate: string | null }, visits: VisitDates): boolean {
  const visited = visits.get(subject.id)
  if (visited === undefined) return true
  return subject.lastMindmapUpdate !== null && Date.parse(subject.lastMindmapUpdate) > Date.parse(visited)
}
