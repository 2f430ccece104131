import { describe, expect, it } from 'vitest'
import { isSubjectKey, queryKeys } from './queryKeys'

/** Every key an area builds, with sample arguments. */
function keysOf(area: Record<string, unknown>): (readonly unknown[])[] {
  return Object.values(area).map((key) => (typeof key === 'function' ? (key as (...ids: number[]) => readonly unknown[])(1, 2) : (key as readonly unknown[])))
}

describe('query keys', () => {
  it.each(['mapping', 'subjects', 'users', 'permission', 'account'] as const)(
    'of %s all start with the key its changes invalidate',
    (area) => {
      const { all } = queryKeys[area]
      for (const key of keysOf(queryKeys[area])) expect(key.slice(0, all.length)).toEqual(all)
    },
  )

  it("tell a subject's own keys from the lists and counts that show it", () => {
    expect(isSubjectKey(queryKeys.subjects.subject(5), 5)).toBe(true)
    expect(isSubjectKey(queryKeys.subjects.picture(5), 5)).toBe(true)
    expect(isSubjectKey(queryKeys.subjects.subject(6), 5)).toBe(false)
    expect(isSubjectKey(queryKeys.subjects.list, 5)).toBe(false)
    expect(isSubjectKey(queryKeys.mapping.cartography(5), 5)).toBe(false)
  })
})
