import {
  cartographyQualificationDashboardPath,
  groupQualificationDashboardPath,
  qualificationPath,
  trainingModulePath,
  userQualificationDashboardPath,
} from '../../lib/paths'
import type { DashboardLink } from '../../components/qualifications/types'
import { holds, type HasPermissions } from '../../lib/permissions'

/**
 * Where an item or a child of a qualification dashboard leads, for this reader: a qualification to its
 * view (open to all); a person, a group or a cartography to its own dashboard (perm_TableauBord); a
 * module to its view (perm_TrainingManagement). What the reader may not open is no link.
 */
export function qualificationLinks(user: HasPermissions | undefined): (link: DashboardLink) => string | undefined {
  const dashboards = user !== undefined && holds('perm_TableauBord')(user)
  const modules = user !== undefined && holds('perm_TrainingManagement')(user)
  return (link) => {
    switch (link.type) {
      case 'qualification':
        return qualificationPath(link.id)
      case 'user':
        return dashboards ? userQualificationDashboardPath(link.id) : undefined
      case 'group':
        return dashboards ? groupQualificationDashboardPath(link.id) : undefined
      case 'cartography':
        return dashboards ? cartographyQualificationDashboardPath(link.id) : undefined
      case 'module':
        return modules ? trainingModulePath(link.id) : undefined
    }
  }
}
