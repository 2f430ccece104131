import { describe, expect, it } from 'vitest'
import { completionColour, completionLevel } from './rules'

describe('the completion colours (spec 2 §9)', () => {
  it.each([
    [-1, undefined],
    [0, 'error'],
    [32, 'error'],
    [33, 'accent'],
    [65, 'accent'],
    [66, 'success'],
    [100, 'success'],
  ])('%d is %s', (completion, colour) => {
    expect(completionColour(completion)).toBe(colour)
  })
})

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
