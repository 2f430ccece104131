import { describe, expect, it } from 'vitest'
import type { CourseNode } from '../../../components/courses/api'
import { afterTermination, canChoose, firstUnit, neighbour, requestedTarget, runtimeMessage, type UnitProgress, unitsOf } from './flow'

const leaf = (id: number, name: string) => ({ id, type: 'resource' as const, name, description: '', masteryScore: null })
const COURSE: CourseNode = {
  id: 1,
  type: 'group',
  name: 'Golf',
  description: '',
  children: [
    { id: 2, type: 'group', name: 'Playing', description: '', children: [leaf(10, 'How to play'), leaf(11, 'Par')] },
    { id: 3, type: 'group', name: 'Etiquette', description: '', children: [leaf(20, 'Course care')] },
    leaf(30, 'Summary'),
  ],
}

const progress = (rows: (Partial<UnitProgress> & { itemId: number })[]) =>
  new Map(rows.map((row) => [row.itemId, { identifier: `item_${row.itemId}`, status: 'notAttempted', resumable: false, tracked: true, choice: true, flow: true, ...row } as UnitProgress]))

describe('the player table of contents', () => {
  it('lists the units in reading order with their blocks', () => {
    expect(unitsOf(COURSE).map(({ leaf, block }) => [leaf.id, block])).toEqual([
      [10, 'Playing'],
      [11, 'Playing'],
      [20, 'Etiquette'],
      [30, undefined],
    ])
  })

  it('opens the unit asked for, else the suspended one, else the first not done, else the first', () => {
    const units = unitsOf(COURSE)
    expect(firstUnit(units, progress([]), 20)).toBe(20)
    expect(firstUnit(units, progress([]), 99)).toBe(10)
    expect(firstUnit(units, progress([{ itemId: 10, status: 'completed' }, { itemId: 20, status: 'incomplete', resumable: true }]), undefined)).toBe(20)
    expect(firstUnit(units, progress([{ itemId: 10, status: 'passed' }, { itemId: 11, status: 'failed' }]), undefined)).toBe(11)
    const allDone = progress([10, 11, 20, 30].map((itemId) => ({ itemId, status: 'completed' as const })))
    expect(firstUnit(units, allDone, undefined)).toBe(10)
  })

  it('offers Previous and Next only where the block allows flow, and choice where it allows choice', () => {
    const units = unitsOf(COURSE)
    const flowing = progress([{ itemId: 11 }, { itemId: 20, flow: false, choice: false }])
    expect(neighbour(units, flowing, 11, 1)).toBe(20)
    expect(neighbour(units, flowing, 11, -1)).toBe(10)
    expect(neighbour(units, flowing, 10, -1)).toBeUndefined()
    expect(neighbour(units, flowing, 20, 1)).toBeUndefined()
    expect(canChoose(flowing, 20, 11)).toBe(false)
    expect(canChoose(flowing, 20, 20)).toBe(true)
    expect(canChoose(flowing, 30, 11)).toBe(true)
  })

  it('reads only the runtime messages, and where a navigation request leads', () => {
    expect(runtimeMessage({ source: 'spot-scorm', event: 'terminated', navRequest: 'continue' })).toEqual({ event: 'terminated', navRequest: 'continue' })
    expect(runtimeMessage({ source: 'spot-scorm', event: 'committed' })).toEqual({ event: 'committed' })
    expect(runtimeMessage({ source: 'spot-scorm', event: 'left' })).toEqual({ event: 'left' })
    expect(runtimeMessage({ source: 'other', event: 'committed' })).toBeUndefined()
    expect(runtimeMessage({ source: 'spot-scorm', event: 'evil' })).toBeUndefined()
    expect(runtimeMessage('spot-scorm')).toBeUndefined()
    expect(afterTermination('continue')).toBe(1)
    expect(afterTermination('previous')).toBe(-1)
    expect(afterTermination('exitAll')).toBeUndefined()
    expect(afterTermination(undefined)).toBeUndefined()
    expect(requestedTarget('{target=etiquette_quiz_item}choice')).toBe('etiquette_quiz_item')
    expect(requestedTarget('{target=par}jump')).toBe('par')
    expect(requestedTarget('continue')).toBeUndefined()
    expect(requestedTarget('{target=}choice')).toBeUndefined()
  })
})
