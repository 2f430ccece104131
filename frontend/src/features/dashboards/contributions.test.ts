import { describe, expect, it } from 'vitest'
import { type ContributionsSelection, chartRightMargin, contributionsBody, durationOf, initialSelection, selectionErrors } from './contributions'

const selection = (patch: Partial<ContributionsSelection>): ContributionsSelection => ({ ...initialSelection(), ...patch })
const place = { type: 'cartography' as const, id: 4, name: 'Atelier', context: [{ type: 'site' as const, id: 1, name: 'Lyon' }] }
// A Wednesday: its week is the 47th of 2026 counted from the week holding 1 January 2024.
const TODAY = new Date(2026, 10, 25)

describe('the contribution dashboard selection (spec 2 §5)', () => {
  it('starts valid: the whole map, everyone, the most weeks', () => {
    expect(initialSelection()).toMatchObject({ granularity: 'week', duration: '78', byLocation: false, byContributors: false })
    expect(selectionErrors(initialSelection())).toEqual({})
  })

  it('asks for a location when the location switch is on', () => {
    expect(selectionErrors(selection({ byLocation: true }))).toEqual({ location: 'locationError' })
    expect(selectionErrors(selection({ byLocation: true, location: place }))).toEqual({})
    // Off, a location chosen earlier is no longer asked for.
    expect(selectionErrors(selection({ byLocation: false, location: null }))).toEqual({})
  })

  it('asks for contributors or groups when their switch is on', () => {
    expect(selectionErrors(selection({ byContributors: true }))).toEqual({ contributors: 'defineAtLeastOneContributorOrGroup' })
    expect(selectionErrors(selection({ byContributors: true, contributors: [{ id: 3, name: 'A' }] }))).toEqual({})
    expect(selectionErrors(selection({ byContributors: true, groups: [{ id: 2, name: 'G' }] }))).toEqual({})
  })

  it.each([
    ['week', '1', 1],
    ['week', '78', 78],
    ['week', ' 12 ', 12],
    ['week', '79', undefined],
    ['week', '0', undefined],
    ['week', '', undefined],
    ['week', '1.5', undefined],
    ['week', '-3', undefined],
    ['month', '18', 18],
    ['month', '19', undefined],
  ] as const)('a duration of %s: "%s" is %s', (granularity, duration, count) => {
    expect(durationOf({ granularity, duration })).toBe(count)
    expect(selectionErrors(selection({ granularity, duration })).duration).toBe(count === undefined ? 'valueMustBeBetween' : undefined)
  })
})

describe('what the server is asked', () => {
  it('is the periods ending with the current one, everywhere and everyone by default', () => {
    const weeks = contributionsBody(initialSelection(), TODAY)
    expect(weeks).toMatchObject({ granularity: 'week', fromYear: 2024, count: 78, itemIds: [], subjectIds: [], userIds: [], groupIds: [] })
    const shorter = contributionsBody(selection({ duration: '10' }), TODAY)
    // The same last period: the window only starts later.
    expect(shorter.start + shorter.count).toBe(weeks.start + weeks.count)
    expect(shorter.count).toBe(10)
    const months = contributionsBody(selection({ granularity: 'month', duration: '18' }), TODAY)
    // November 2026 is month 34 counted from January 2024.
    expect(months).toMatchObject({ granularity: 'month', fromYear: 2024, start: 34 - 17, count: 18 })
  })

  it('names the place (a subject by its own id) and the contributors only when their switch is on', () => {
    expect(contributionsBody(selection({ byLocation: true, location: place }), TODAY)).toMatchObject({ itemIds: [4], subjectIds: [] })
    const subject = { ...place, type: 'subject' as const, id: 9 }
    expect(contributionsBody(selection({ byLocation: true, location: subject }), TODAY)).toMatchObject({ itemIds: [], subjectIds: [9] })
    expect(contributionsBody(selection({ byLocation: false, location: place }), TODAY)).toMatchObject({ itemIds: [], subjectIds: [] })
    const people = { contributors: [{ id: 3, name: 'A' }], groups: [{ id: 2, name: 'G' }] }
    expect(contributionsBody(selection({ byContributors: true, ...people }), TODAY)).toMatchObject({ userIds: [3], groupIds: [2] })
    expect(contributionsBody(selection({ byContributors: false, ...people }), TODAY)).toMatchObject({ userIds: [], groupIds: [] })
  })
})

describe('the chart\'s right margin', () => {
  it('holds half of the longest label, so that the last one, centred on the last bar, is not cut', () => {
    const labels = ['nov. 2025', 'déc. 2025', 'janv. 2026']
    // At most 7 px a character of the axis' 12 px font, half of it beyond the last bar's centre.
    expect(chartRightMargin(labels)).toBeGreaterThanOrEqual(Math.ceil((7 * 'janv. 2026'.length) / 2))
    expect(chartRightMargin(['2026-11-23'])).toBeGreaterThanOrEqual(35)
    expect(chartRightMargin([])).toBe(16)
  })
})
