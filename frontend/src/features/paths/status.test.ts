import { describe, expect, it } from 'vitest'
import { currentPathStep, moduleStatusColor } from './status'

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
