import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined'
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined'
import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined'
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined'
import type SvgIcon from '@mui/material/SvgIcon'
import { DASHBOARD_NAVIGATION } from '../../features/dashboards/navigation'
import { LMS_NAVIGATION } from '../../features/lms/navigation'
import { MAPPING_NAVIGATION } from '../../features/mapping/navigation'
import { MEDIATION_ADD_MENU, MEDIATION_NAVIGATION } from '../../features/mediations/navigation'
import { MODULE_ADD_MENU, MODULE_NAVIGATION } from '../../features/modules/navigation'
import { PATH_ADD_MENU, PATH_NAVIGATION } from '../../features/paths/navigation'
import { QUALIFICATION_ADD_MENU, QUALIFICATION_NAVIGATION } from '../../features/qualifications/navigation'
import { REFERENCE_NAVIGATION } from '../../features/references/navigation'
import { REPORT_NAVIGATION } from '../../features/reports/navigation'
import { holds, type PermissionCheck } from '../../lib/permissions'
import { CARTOGRAPHIES_VISIBILITY_PATH, NEW_SUBJECT_PATH, PERMISSIONS_PATH, USERS_PATH } from '../paths'

export interface NavigationEntry {
  to: string
  /** i18n key of the entry's label. */
  label: string
  /** i18n key of the drawer section the entry belongs to. */
  section: string
  icon: typeof SvgIcon
  allowed: PermissionCheck
}

/** The drawer, in display order. */
export const NAVIGATION: NavigationEntry[] = [
  ...MAPPING_NAVIGATION,
  ...MEDIATION_NAVIGATION,
  ...MODULE_NAVIGATION,
  ...PATH_NAVIGATION,
  ...QUALIFICATION_NAVIGATION,
  ...DASHBOARD_NAVIGATION,
  ...LMS_NAVIGATION,
  {
    to: PERMISSIONS_PATH,
    label: 'nav.permissions',
    section: 'nav.sections.administration',
    icon: AdminPanelSettingsOutlined,
    allowed: holds('perm_SetPermissions'),
  },
  { to: CARTOGRAPHIES_VISIBILITY_PATH, label: 'nav.cartographiesVisibility', section: 'nav.sections.administration', icon: VisibilityOutlined, allowed: holds('perm_SetPermissions') },
  {
    to: USERS_PATH,
    label: 'nav.users',
    section: 'nav.sections.administration',
    icon: PeopleAltOutlined,
    allowed: holds('perm_UserManagement'),
  },
  ...REFERENCE_NAVIGATION,
  ...REPORT_NAVIGATION,
]

export interface AddMenuEntry {
  to: string
  /** i18n key of the entry's label. */
  label: string
  icon: typeof SvgIcon
  allowed: PermissionCheck
}

/** The header's plus menu: the creations a user may make, each shown to those the page's guard lets in. */
export const ADD_MENU: AddMenuEntry[] = [
  { to: NEW_SUBJECT_PATH, label: 'addMenu.newSubject', icon: AccountTreeOutlined, allowed: holds('perm_EditPdv') },
  ...MEDIATION_ADD_MENU,
  ...MODULE_ADD_MENU,
  ...PATH_ADD_MENU,
  ...QUALIFICATION_ADD_MENU,
]
