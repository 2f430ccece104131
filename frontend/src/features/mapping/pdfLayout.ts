import type { ActivityNode } from './api'

/** The activities of the export: the first four, two columns to a page (spec 1 §2). */
export const EXPORTED_ACTIVITIES = 4
export const COLUMNS_PER_PAGE = 2

export interface ExportedSubject {
  name: string
  activityId: number
}

/** The activity pages: the first activities, grouped by page. */
export function activityPages<T>(activities: T[]): T[][] {
  const exported = activities.slice(0, EXPORTED_ACTIVITIES)
  const pages: T[][] = []
  for (let start = 0; start < exported.length; start += COLUMNS_PER_PAGE) pages.push(exported.slice(start, start + COLUMNS_PER_PAGE))
  return pages
}

export interface Line {
  text: string
  depth: number
  kind: 'activity' | 'subject'
}

/** What a column lists: each (sub-)activity under its parent, followed by its own subjects. */
export function columnLines(activity: ActivityNode, subjects: ExportedSubject[], depth = 0): Line[] {
  const own = subjects.filter((subject) => subject.activityId === activity.id)
  return [
    ...(depth > 0 ? [{ text: activity.name, depth, kind: 'activity' as const }] : []),
    ...own.map((subject) => ({ text: subject.name, depth, kind: 'subject' as const })),
    ...activity.activities.flatMap((child) => columnLines(child, subjects, depth + 1)),
  ]
}
