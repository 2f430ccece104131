import SchoolOutlined from '@mui/icons-material/SchoolOutlined'
import { NEW_TRAINING_MODULE_PATH, TRAINING_MODULES_PATH } from '../../app/paths'
import type { AddMenuEntry, NavigationEntry } from '../../app/shell/navigation'
import { holds } from '../../lib/permissions'

const manager = holds('perm_TrainingManagement')

export const MODULE_NAVIGATION: NavigationEntry[] = [
  { to: TRAINING_MODULES_PATH, label: 'nav.modules', section: 'nav.sections.training', icon: SchoolOutlined, allowed: manager },
]

export const MODULE_ADD_MENU: AddMenuEntry[] = [{ to: NEW_TRAINING_MODULE_PATH, label: 'addMenu.newModule', icon: SchoolOutlined, allowed: manager }]
