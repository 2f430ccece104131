import { alpha, type Theme } from '@mui/material/styles'
import type { NodeStatus } from './types'

/** The statuses a user may give a node; `empty` only comes from legacy data and new subjects. */
export const SETTABLE_STATUSES = ['inProgress', 'toValidate', 'validated'] as const satisfies readonly NodeStatus[]

const BRAND = { empty: 'grey', inProgress: 'info', toValidate: 'warning', validated: 'success' } as const

export const statusLabelKey = (status: NodeStatus) => `subjects.nodeStatus.${status}` as const

/**
 * A node's colours: a border in the status's brand colour and a light tint of it behind dark text,
 * so the text reads at AA whatever the status (the status is written in the node as well).
 */
export function statusColours(theme: Theme, status: NodeStatus): { border: string; background: string; text: string } {
  const brand = BRAND[status]
  const border = brand === 'grey' ? theme.palette.grey[500] : theme.palette[brand].main
  return { border, background: brand === 'grey' ? theme.palette.grey[100] : alpha(border, 0.14), text: theme.palette.text.primary }
}

/**
 * The statuses offered for a node now: setting a node to or from `validated` needs the right to
 * validate, so without it a validated node offers nothing and others do not offer `validated`.
 */
export function statusChoices(current: NodeStatus, canValidate: boolean): NodeStatus[] {
  if (!canValidate && current === 'validated') return []
  return SETTABLE_STATUSES.filter((status) => status !== current && (canValidate || status !== 'validated'))
}
