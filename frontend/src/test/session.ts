import type { components } from '../api/schema'

type SessionCan = components['schemas']['SessionCan']

/** whoAmI's `can` as a fake server answers it: nothing allowed but what `allowed` says. */
export const sessionCan = (allowed: Partial<SessionCan> = {}): SessionCan => ({
  reportOnPaths: false,
  importCourses: false,
  downloadAuditPacks: false,
  createQualifications: false,
  editRequalification: false,
  seeQualificationDashboards: false,
  ...allowed,
})
