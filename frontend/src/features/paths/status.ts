/** The statuses of a training path (spec 2 §4), in the order it goes through them; canceled ends it. */
export const PATH_STATUSES = ['notAccepted', 'accepted', 'started', 'finished', 'validated', 'archived', 'canceled'] as const
export type PathStatus = (typeof PATH_STATUSES)[number]

/** The statuses of an assigned module (spec 2 §4); disabled takes it out of the path's totals. */
export const MODULE_STATUSES = ['notStarted', 'started', 'finished', 'validated', 'archived', 'disabled'] as const
export type ModuleStatus = (typeof MODULE_STATUSES)[number]

/** The card's and the view's steps (spec 2 §2): accepted, started, finished, validated, archived. */
export const PATH_STEPS = ['accepted', 'started', 'finished', 'validated', 'archived'] as const
export type PathStep = (typeof PATH_STEPS)[number]

/**
 * How far a path went: the index in PATH_STEPS of its current step (-1 while notAccepted, no step
 * reached yet), or 'canceled', which is shown alone.
 */
export function currentPathStep(status: PathStatus): number | 'canceled' {
  if (status === 'canceled') return 'canceled'
  return PATH_STEPS.indexOf(status as PathStep)
}

/** The i18n key of a path status's label. */
export const pathStatusLabel = (status: PathStatus) => `trainingPaths.status.${status}`
/** The i18n key of an assigned module status's label. */
export const moduleStatusLabel = (status: ModuleStatus) => `trainingPaths.moduleStatus.${status}`

export type ChipColor = 'default' | 'primary' | 'secondary' | 'error' | 'info' | 'success' | 'warning'

/** The colour of a module status chip: waiting grey, in progress blue, awaiting a grade or a signature amber, done green. */
export function moduleStatusColor(status: ModuleStatus): ChipColor {
  switch (status) {
    case 'notStarted':
    case 'disabled':
      return 'default'
    case 'started':
      return 'info'
    case 'finished':
    case 'validated':
      return 'warning'
    case 'archived':
      return 'success'
  }
}
