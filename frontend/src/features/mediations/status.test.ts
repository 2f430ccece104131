import { describe, expect, it } from 'vitest'
import { cardDate, currentStep, firstLine } from './status'

describe('the step indicator', () => {
  it.each([
    ['created', -1],
    ['started', 0],
    ['paused', 0],
    ['stopped', 1],
    ['validated', 2],
    ['archived', 3],
    ['canceled', 'canceled'],
  ])('puts a %s mediation at step %s', (status, step) => {
    expect(currentStep(status)).toBe(step)
  })
})

const START = '2026-12-01T09:00:00Z'
const STOP = '2026-12-01T10:30:00Z'
const SCHEDULED = '2026-11-30T08:00:00Z'

describe('the card date', () => {
  it('is the scheduling date of a created mediation, whatever else it holds', () => {
    expect(cardDate({ status: 'created', schedulingDate: SCHEDULED, executionStart: null, executionStop: null })).toEqual({ kind: 'scheduledOn', date: SCHEDULED })
    expect(cardDate({ status: 'created', schedulingDate: null })).toEqual({ kind: 'notScheduled' })
  })

  it('is the start of a started or paused one', () => {
    for (const status of ['started', 'paused']) {
      expect(cardDate({ status, schedulingDate: SCHEDULED, executionStart: START, executionStop: STOP })).toEqual({ kind: 'startedOn', date: START })
    }
  })

  it('is the start-to-end range otherwise', () => {
    for (const status of ['stopped', 'validated', 'archived', 'canceled']) {
      expect(cardDate({ status, schedulingDate: SCHEDULED, executionStart: START, executionStop: STOP })).toEqual({ kind: 'range', start: START, stop: STOP })
    }
  })

  it('is the schedule of a mediation canceled before it started', () => {
    expect(cardDate({ status: 'canceled', schedulingDate: SCHEDULED, executionStart: null, executionStop: null })).toEqual({ kind: 'scheduledOn', date: SCHEDULED })
  })

  it('is an open range when the end is not known', () => {
    expect(cardDate({ status: 'stopped', schedulingDate: null, executionStart: START, executionStop: null })).toEqual({ kind: 'since', start: START })
  })
})

describe('firstLine', () => {
  it('keeps a single line as it is', () => {
    expect(firstLine('Réglage du tour')).toBe('Réglage du tour')
  })

  it('shows the first of several lines with an ellipsis', () => {
    expect(firstLine('Réglage du tour\nDeuxième ligne\r\nTroisième')).toBe('Réglage du tour…')
  })

  it('is empty for an empty description', () => {
    expect(firstLine('')).toBe('')
  })
})
