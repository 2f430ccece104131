/** The statuses of a mediation (spec 1 §4), in the order it goes through them; canceled ends it at any point. */
export const MEDIATION_STATUSES = ['created', 'started', 'paused', 'stopped', 'validated', 'archived', 'canceled'] as const
export type MediationStatus = (typeof MEDIATION_STATUSES)[number]

/** The list's step indicator: in progress (started or paused), stopped, validated, archived. */
export const STEPS = ['inProgress', 'stopped', 'validated', 'archived'] as const
export type Step = (typeof STEPS)[number]

const STEP_OF: Partial<Record<string, number>> = { started: 0, paused: 0, stopped: 1, validated: 2, archived: 3 }

/**
 * How far a mediation went: the index in STEPS of its current step (-1 when created, no step reached
 * yet), or 'canceled', which the indicator shows as a single label.
 */
export function currentStep(status: string): number | 'canceled' {
  if (status === 'canceled') return 'canceled'
  return STEP_OF[status] ?? -1
}

/** What a card's date says: the scheduling date when created, the start when started or paused, the start-to-end range otherwise. */
export type CardDate =
  | { kind: 'scheduledOn'; date: string }
  | { kind: 'notScheduled' }
  | { kind: 'startedOn'; date: string }
  | { kind: 'range'; start: string; stop: string }
  | { kind: 'since'; start: string }

export interface DatedMediation {
  status: string
  schedulingDate?: string | null
  executionStart?: string | null
  executionStop?: string | null
}

export function cardDate({ status, schedulingDate, executionStart, executionStop }: DatedMediation): CardDate {
  const scheduled: CardDate = schedulingDate ? { kind: 'scheduledOn', date: schedulingDate } : { kind: 'notScheduled' }
  if (status === 'created') return scheduled
  // A mediation canceled before it started has no execution to show: its schedule is what it had.
  if (!executionStart) return scheduled
  if (status === 'started' || status === 'paused') return { kind: 'startedOn', date: executionStart }
  return executionStop ? { kind: 'range', start: executionStart, stop: executionStop } : { kind: 'since', start: executionStart }
}

/** The area's dates and times are written as everywhere else. */
export { formatDateTime } from '../../lib/dates'

/** A description as cards show it: its first line, with an ellipsis when more lines follow. */
export function firstLine(description: string): string {
  const lines = description.trim().split(/\r?\n/)
  const first = lines[0].trimEnd()
  return lines.length > 1 ? `${first}…` : first
}
