import { holds, type PermissionCheck } from '../../lib/permissions'

/**
 * Who may create a qualification (docs/qualifications.md 'Permissions'): perm_TableauBord, as the
 * spec's screen shows, or perm_QualificationAdmin. Editing and deleting are the server's `can`.
 */
export const mayCreateQualification: PermissionCheck = (user) => holds('perm_TableauBord')(user) || holds('perm_QualificationAdmin')(user)
