import { describe, expect, it } from 'vitest'
import type { ActivityNode } from './api'
import { activityPages, columnLines } from './pdfLayout'

const activity = (id: number, activities: ActivityNode[] = []): ActivityNode => ({ id, code: `A${id}`, name: `Activity ${id}`, subjectsCount: 0, activities })

describe('PDF activity pages', () => {
  it('puts the first four activities two to a page', () => {
    expect(activityPages([1, 2, 3, 4, 5, 6])).toEqual([
      [1, 2],
      [3, 4],
    ])
    expect(activityPages([1, 2, 3])).toEqual([[1, 2], [3]])
    expect(activityPages([])).toEqual([])
  })

  it('lists a column activity by activity, each followed by its own subjects', () => {
    const tree = activity(1, [activity(2), activity(3, [activity(4)])])
    const subjects = [
      { name: 'On the top', activityId: 1 },
      { name: 'In 3', activityId: 3 },
      { name: 'In 4', activityId: 4 },
      { name: 'Elsewhere', activityId: 9 },
    ]
    expect(columnLines(tree, subjects)).toEqual([
      { text: 'On the top', depth: 0, kind: 'subject' },
      { text: 'Activity 2', depth: 1, kind: 'activity' },
      { text: 'Activity 3', depth: 1, kind: 'activity' },
      { text: 'In 3', depth: 1, kind: 'subject' },
      { text: 'Activity 4', depth: 2, kind: 'activity' },
      { text: 'In 4', depth: 2, kind: 'subject' },
    ])
  })
})
