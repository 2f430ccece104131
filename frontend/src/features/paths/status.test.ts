import { describe, expect, it } from 'vitest'
import { completionColor, currentPathStep, moduleStatusColor } from './status'

describe('the steps of a path', () => {
  it.each([
    ['notAccepted', -1],
    ['accepted', 0],
    ['started', 1],
    ['finished', 2],
    ['validated', 3],
    ['archived', 4],
  ] as const)('put %s at step %i', (status, step) => {
    expect(currentPathStep(status)).toBe(step)
  })

  it('show canceled alone', () => {
    expect(currentPathStep('canceled')).toBe('canceled')
  })
})

describe('the colour of a completion (spec 2 §9)', () => {
  it.each([
    [0, 'error'],
    [32, 'error'],
    [33, 'accent'],
    [65, 'accent'],
    [66, 'success'],
    [100, 'success'],
  ])('%i %% is %s', (completion, colour) => {
    expect(completionColor(completion)).toBe(colour)
  })

  it('is none when nothing can be counted (-1)', () => {
    expect(completionColor(-1)).toBeUndefined()
  })
})

describe('the colour of a module status', () => {
  it('tells waiting, in progress, awaiting a grade or a signature, and done apart', () => {
    expect(moduleStatusColor('notStarted')).toBe('default')
    expect(moduleStatusColor('started')).toBe('info')
    expect(moduleStatusColor('finished')).toBe('warning')
    expect(moduleStatusColor('validated')).toBe('warning')
    expect(moduleStatusColor('archived')).toBe('success')
    expect(moduleStatusColor('disabled')).toBe('default')
  })
})
