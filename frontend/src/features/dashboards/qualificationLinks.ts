import {
  cartographyQualificationDashboardPath,
  groupQualificationDashboardPath,
  qualificationPath,
  trainingModulePath,
  userQualificationDashboardPath,
} from '../../lib/paths'
import type { DashboardLink } from '../../components/qualifications/types'
import type { HasPermissions } from '../../lib/permissions'
import { mayOpen } from '../../lib/routes'

/**
 * Where an item or a child of a qualification dashboard leads, for this reader: a qualification to its
 * view (open to all); a person to their status (whoAmI's can.seeQualificationDashboards: anyone's); a
 * group, a cartography or a module to its page, as the pages' permissions allow. What the reader may not
 * open is no link.
 */
export function qualificationLinks(user: HasPermissions | undefined): (link: DashboardLink) => string | undefined {
  const allowed = (path: string) => (mayOpen(user, path) ? path : undefined)
  return (link) => {
    switch (link.type) {
      case 'qualification':
        return qualificationPath(link.id)
      case 'user':
        return user?.can?.seeQualificationDashboards === true ? userQualificationDashboardPath(link.id) : undefined
      case 'group':
        return allowed(groupQualificationDashboardPath(link.id))
      case 'cartography':
        return allowed(cartographyQualificationDashboardPath(link.id))
      case 'module':
        return allowed(trainingModulePath(link.id))
    }
  }
}
