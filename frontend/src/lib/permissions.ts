import type { components } from '../api/schema'

/** The permission names of the specification (part 1, §3). */
export const PERMISSIONS = [
  'perm_TableauBord',
  'perm_VisuTrack',
  'perm_EditPdv',
  'perm_RemPdv',
  'perm_EditNotHaute',
  'perm_ValidNotHaute',
  'perm_EditNotBasse',
  'perm_SetPermissions',
  'perm_EditResourcesVideos',
  'perm_TrainingManagement',
  'perm_UserManagement',
  'perm_TrainingPathView',
  'perm_TrainingPathAdmin',
  'perm_TrainingReferenceAdmin',
  'perm_QualificationAdmin',
] as const

export type Permission = (typeof PERMISSIONS)[number]

export interface HasPermissions {
  permissions: string[]
  /** What the server's policies let the user do beyond holding one permission (whoAmI's `can`). */
  can?: components['schemas']['SessionCan']
}

/** A check of the signed-in user's global permissions; the server enforces the same rule. */
export type PermissionCheck = (user: HasPermissions) => boolean

export const holds =
  (permission: Permission): PermissionCheck =>
  (user) =>
    user.permissions.includes(permission)

export function permissionLabelKey(name: string): string {
  return `permissionNames.${name}`
}
