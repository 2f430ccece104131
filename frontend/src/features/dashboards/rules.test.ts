import { describe, expect, it } from 'vitest'
import { completionLevel } from './rules'

describe('the completion levels of the path dashboards (spec 2 §4)', () => {
  it.each([
    [-1, 'none'],
    [0, 'low'],
    [32, 'low'],
    [33, 'medium'],
    [66, 'medium'],
    [67, 'high'],
    [100, 'high'],
  ])('%d is %s', (completion, level) => {
    expect(completionLevel(completion)).toBe(level)
  })
})
