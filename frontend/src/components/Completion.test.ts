import { describe, expect, it } from 'vitest'
import { completionColour } from './Completion'

describe('the colour of a completion (spec 2 §9)', () => {
  it.each([
    [0, 'error'],
    [32, 'error'],
    [33, 'accent'],
    [65, 'accent'],
    [66, 'success'],
    [100, 'success'],
  ])('%i %% is %s', (completion, colour) => {
    expect(completionColour(completion)).toBe(colour)
  })

  it('is none when nothing can be counted (-1)', () => {
    expect(completionColour(-1)).toBeUndefined()
  })
})
