import { matchPath } from 'react-router'
import { holds, type HasPermissions, type PermissionCheck } from './permissions'

const editsMap = holds('perm_EditPdv')
const managesTraining = holds('perm_TrainingManagement')
const seesDashboards = holds('perm_TableauBord')
const administersReferences = holds('perm_TrainingReferenceAdmin')
const setsPermissions = holds('perm_SetPermissions')
const managesUsers = holds('perm_UserManagement')

/**
 * The pages a rule guards, by route pattern (the paths of the features' routes.tsx), each with the
 * rule the server's routes apply to what the page shows or creates: a permission they require, or a
 * `can` of whoAmI. The router's guard (`components/RequirePermission`) and the navigation (drawer,
 * plus menu, links to a page) read this list; a page not in it is open to every signed-in user, the
 * server deciding what each sees there. app/routes.test.ts checks that every guarded route is here.
 */
export const PAGE_PERMISSIONS: readonly { pattern: string; allowed: PermissionCheck }[] = [
  { pattern: '/subject/add', allowed: editsMap },
  { pattern: '/subject/edit/:subjectId', allowed: editsMap },
  { pattern: '/subject/createFrom/:subjectId', allowed: editsMap },
  { pattern: '/training/modules/:filter?', allowed: managesTraining },
  { pattern: '/training/module/view/:moduleId', allowed: managesTraining },
  { pattern: '/training/module/add', allowed: managesTraining },
  { pattern: '/training/module/edit/:moduleId', allowed: managesTraining },
  { pattern: '/training/module/createFrom/:moduleId', allowed: managesTraining },
  // Editing a path is for its creator or a path administrator, which the edit page checks on the path.
  { pattern: '/training/path/add/:pathId?', allowed: managesTraining },
  // Creating a qualification is qualifications.policy's rule, told by whoAmI's can; editing one is the
  // qualification's `can`, checked by the edit page.
  { pattern: '/qualification/add', allowed: (user) => user.can?.createQualifications === true },
  { pattern: '/administration/trainingModuleReferences/:filter?', allowed: administersReferences },
  { pattern: '/administration/trainingPathReferences/:filter?', allowed: administersReferences },
  // Who may report is the server's rule (reports.policy), told by whoAmI's can.reportOnPaths.
  { pattern: '/administration/trainingPathReport', allowed: (user) => user.can?.reportOnPaths === true },
  { pattern: '/administration/permissions', allowed: setsPermissions },
  { pattern: '/administration/cartographies/permissions', allowed: setsPermissions },
  { pattern: '/administration/users/:filter?', allowed: managesUsers },
  { pattern: '/administration/outbox', allowed: managesUsers },
  { pattern: '/dashboards/manager', allowed: seesDashboards },
  { pattern: '/dashboards/trainingPath', allowed: seesDashboards },
  { pattern: '/dashboards/trainingPath/group/:groupId', allowed: seesDashboards },
  { pattern: '/dashboards/qualifications/cartography/:cartographyId', allowed: seesDashboards },
  { pattern: '/dashboards/qualifications/cartography/:cartographyId/matrix', allowed: seesDashboards },
  { pattern: '/dashboard/qualifications/group/:groupId', allowed: seesDashboards },
  { pattern: '/dashboards/contributions', allowed: holds('perm_VisuTrack') },
]

const signedIn: PermissionCheck = () => true

/** Who may open the page at `address` (a path of lib/paths.ts, its query ignored). */
export function pagePermission(address: string): PermissionCheck {
  const pathname = address.split(/[?#]/, 1)[0]
  return PAGE_PERMISSIONS.find(({ pattern }) => matchPath(pattern, pathname) !== null)?.allowed ?? signedIn
}

/** Whether `user` may open the page at `address`; the server decides again on every call the page makes. */
export function mayOpen(user: HasPermissions | undefined, address: string): boolean {
  return user !== undefined && pagePermission(address)(user)
}
