import type { PermissionCheck } from '../../lib/permissions'

/** The path report page and every report call: the server says who may report (whoAmI's can.reportOnPaths). */
export const mayReport: PermissionCheck = (user) => user.can?.reportOnPaths === true
