import { describe, expect, it } from 'vitest'
import { isUnread, visitDates } from './unread'

const visits = visitDates([
  { subjectId: 1, date: '2026-03-10T09:00:00Z' },
  { subjectId: 2, date: '2026-03-10T09:00:00Z' },
])

describe('unread mark', () => {
  it('marks a subject the user never visited', () => {
    expect(isUnread({ id: 3, lastMindmapUpdate: null }, visits)).toBe(true)
    expect(isUnread({ id: 3, lastMindmapUpdate: '2020-01-01T00:00:00Z' }, visits)).toBe(true)
  })

  it('does not mark a visited subject whose mind map never changed', () => {
    expect(isUnread({ id: 1, lastMindmapUpdate: null }, visits)).toBe(false)
  })

  it('marks a subject whose mind map changed after the last visit, not before', () => {
    expect(isUnread({ id: 1, lastMindmapUpdate: '2026-03-10T09:00:01Z' }, visits)).toBe(true)
    expect(isUnread({ id: 2, lastMindmapUpdate: '2026-03-10T08:59:59Z' }, visits)).toBe(false)
    expect(isUnread({ id: 2, lastMindmapUpdate: '2026-03-10T09:00:00Z' }, visits)).toBe(false)
  })

  it('compares instants, whatever the offset they are written with', () => {
    expect(isUnread({ id: 1, lastMindmapUpdate: '2026-03-10T10:30:00+02:00' }, visits)).toBe(false)
    expect(isUnread({ id: 1, lastMindmapUpdate: '2026-03-10T11:30:00+02:00' }, visits)).toBe(true)
  })
})
