import { useState } from 'react'
import type { ValidityState } from './types'
import { VALIDITY_STATES } from './validity'

/**
 * Which children a qualification dashboard asks the server for (backend qualifications/dashboards.py
 * Shown): the legend's states, and the items shown whole; the others come with their first children
 * only (an item may have 500 people), each with its counts by state.
 */
export interface DashboardShown {
  states: ValidityState[]
  expanded: number[]
}

export const EVERY_CHILD_STATE: DashboardShown = { states: [...VALIDITY_STATES], expanded: [] }

/** The query of a dashboard call: the states only when the legend hides some. */
export function shownQuery(shown: DashboardShown): { states?: ValidityState[]; expanded?: number[] } {
  return {
    ...(shown.states.length < VALIDITY_STATES.length ? { states: shown.states } : {}),
    ...(shown.expanded.length > 0 ? { expanded: shown.expanded } : {}),
  }
}

/** The legend and the expanded items of one dashboard on the page. */
export function useDashboardShown() {
  const [shown, setShown] = useState<DashboardShown>(EVERY_CHILD_STATE)
  return {
    shown,
    setStates: (states: ValidityState[]) => setShown((current) => ({ ...current, states })),
    expand: (itemId: number) => setShown((current) => ({ ...current, expanded: [...current.expanded, itemId] })),
  }
}
