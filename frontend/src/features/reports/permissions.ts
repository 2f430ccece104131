import { holds, type PermissionCheck } from '../../lib/permissions'

/** The path report page and every report call: perm_TableauBord or perm_TrainingManagement (the server checks the same). */
export const mayReport: PermissionCheck = (user) => holds('perm_TableauBord')(user) || holds('perm_TrainingManagement')(user)
