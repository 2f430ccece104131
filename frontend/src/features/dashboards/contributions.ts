import type { MapItemPick } from '../../components/mapTree/MapItemPicker'
import type { Named } from '../../components/people/SearchPicker'
import { type Granularity, PERIOD_COUNTS, usageWindow } from '../../components/usage/periods'
import type { ContributionsBody } from './api'

export type { Granularity }

/** The most periods the contribution dashboard shows (spec 2 §9: 78 weeks or 18 months), also its default. */
export const MAX_PERIODS = PERIOD_COUNTS

/** What the contribution dashboard's selectors hold (spec 2 §2, §5). */
export interface ContributionsSelection {
  /** Whether the figures are of one place of the map only. */
  byLocation: boolean
  location: MapItemPick | null
  /** Whether the figures are of some contributors only, named or by group. */
  byContributors: boolean
  contributors: Named[]
  groups: Named[]
  granularity: Granularity
  /** As typed: a whole number of periods, from 1 to the granularity's maximum. */
  duration: string
}

export const initialSelection = (): ContributionsSelection => ({
  byLocation: false,
  location: null,
  byContributors: false,
  contributors: [],
  groups: [],
  granularity: 'week',
  duration: String(MAX_PERIODS.week),
})

export type SelectionField = 'location' | 'contributors' | 'duration'
/** The message key (spec 2 §5) of each field in error. */
export type SelectionErrors = Partial<Record<SelectionField, string>>

/** The number of periods typed, or undefined when it is no whole number within 1 and the maximum. */
export function durationOf(selection: Pick<ContributionsSelection, 'duration' | 'granularity'>): number | undefined {
  const text = selection.duration.trim()
  if (!/^\d+$/.test(text)) return undefined
  const count = Number(text)
  return count >= 1 && count <= MAX_PERIODS[selection.granularity] ? count : undefined
}

/**
 * The spec's rules (2 §5 Contribution dashboard): a location when the location switch is on
 * (locationError), contributors or groups when theirs is (defineAtLeastOneContributorOrGroup), a
 * duration from 1 to the maximum (valueMustBeBetween).
 */
export function selectionErrors(selection: ContributionsSelection): SelectionErrors {
  const errors: SelectionErrors = {}
  if (selection.byLocation && selection.location === null) errors.location = 'locationError'
  if (selection.byContributors && selection.contributors.length === 0 && selection.groups.length === 0) {
    errors.contributors = 'defineAtLeastOneContributorOrGroup'
  }
  if (durationOf(selection) === undefined) errors.duration = 'valueMustBeBetween'
  return errors
}

/**
 * What the server is asked for a valid selection: the periods ending with the current one, the place
 * (a subject counts by its own id, anything else of the map as an item), and the contributors.
 */
export function contributionsBody(selection: ContributionsSelection, today: Date): ContributionsBody {
  const count = durationOf(selection) ?? MAX_PERIODS[selection.granularity]
  const window = usageWindow(selection.granularity, today)
  const location = selection.byLocation ? selection.location : null
  return {
    granularity: selection.granularity,
    fromYear: window.fromYear,
    // The window ends with the current period whatever its length.
    start: window.start + window.count - count,
    count,
    itemIds: location && location.type !== 'subject' ? [location.id] : [],
    subjectIds: location && location.type === 'subject' ? [location.id] : [],
    userIds: selection.byContributors ? selection.contributors.map((user) => user.id) : [],
    groupIds: selection.byContributors ? selection.groups.map((group) => group.id) : [],
  }
}

/** The least right margin of the chart, and the widest a character of its axis labels (12 px) may be. */
const MIN_RIGHT_MARGIN = 16
const LABEL_CHARACTER_WIDTH = 7

/**
 * The chart's right margin: the last label is centred on the last bar, so half of the longest label
 * may stand beyond the plot; the margin holds it rather than cutting it.
 */
export function chartRightMargin(labels: readonly string[]): number {
  const longest = Math.max(0, ...labels.map((label) => label.length))
  return Math.max(MIN_RIGHT_MARGIN, Math.ceil((longest * LABEL_CHARACTER_WIDTH) / 2))
}
