import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined'
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined'
import MailOutlined from '@mui/icons-material/MailOutlined'
import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined'
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined'
import { DASHBOARD_NAVIGATION } from '../../features/dashboards/navigation'
import { LMS_NAVIGATION } from '../../features/lms/navigation'
import { MAPPING_NAVIGATION } from '../../features/mapping/navigation'
import { MEDIATION_ADD_MENU, MEDIATION_NAVIGATION } from '../../features/mediations/navigation'
import { MODULE_ADD_MENU, MODULE_NAVIGATION } from '../../features/modules/navigation'
import { PATH_ADD_MENU, PATH_NAVIGATION } from '../../features/paths/navigation'
import { QUALIFICATION_ADD_MENU, QUALIFICATION_NAVIGATION } from '../../features/qualifications/navigation'
import { REFERENCE_NAVIGATION } from '../../features/references/navigation'
import { REPORT_NAVIGATION } from '../../features/reports/navigation'
import type { AddMenuEntry, NavigationEntry } from '../../lib/navigation'
import { CARTOGRAPHIES_VISIBILITY_PATH, NEW_SUBJECT_PATH, OUTBOX_PATH, PERMISSIONS_PATH, USERS_PATH } from '../../lib/paths'
import type { PermissionCheck } from '../../lib/permissions'
import { pagePermission } from '../../lib/routes'

/** An entry with who may see it: those who may open its page (lib/routes.ts). */
export type Guarded<Entry> = Entry & { allowed: PermissionCheck }

const guarded = <Entry extends { to: string }>(entries: Entry[]): Guarded<Entry>[] =>
  entries.map((entry) => ({ ...entry, allowed: pagePermission(entry.to) }))

/** The drawer, in display order; each entry shows to those who may open its page (lib/routes.ts). */
export const NAVIGATION: Guarded<NavigationEntry>[] = guarded([
  ...MAPPING_NAVIGATION,
  ...MEDIATION_NAVIGATION,
  ...MODULE_NAVIGATION,
  ...PATH_NAVIGATION,
  ...QUALIFICATION_NAVIGATION,
  ...DASHBOARD_NAVIGATION,
  ...LMS_NAVIGATION,
  { to: PERMISSIONS_PATH, label: 'nav.permissions', section: 'nav.sections.administration', icon: AdminPanelSettingsOutlined },
  { to: CARTOGRAPHIES_VISIBILITY_PATH, label: 'nav.cartographiesVisibility', section: 'nav.sections.administration', icon: VisibilityOutlined },
  { to: USERS_PATH, label: 'nav.users', section: 'nav.sections.administration', icon: PeopleAltOutlined },
  { to: OUTBOX_PATH, label: 'nav.outbox', section: 'nav.sections.administration', icon: MailOutlined },
  ...REFERENCE_NAVIGATION,
  ...REPORT_NAVIGATION,
])

/** The header's plus menu: the creations a user may make, each shown to those who may open its page. */
export const ADD_MENU: Guarded<AddMenuEntry>[] = guarded([
  { to: NEW_SUBJECT_PATH, label: 'addMenu.newSubject', icon: AccountTreeOutlined },
  ...MEDIATION_ADD_MENU,
  ...MODULE_ADD_MENU,
  ...PATH_ADD_MENU,
  ...QUALIFICATION_ADD_MENU,
])
