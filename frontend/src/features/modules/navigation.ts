import SchoolOutlined from '@mui/icons-material/SchoolOutlined'
import { NEW_TRAINING_MODULE_PATH, TRAINING_MODULES_PATH } from '../../lib/paths'
import type { AddMenuEntry, NavigationEntry } from '../../lib/navigation'

export const MODULE_NAVIGATION: NavigationEntry[] = [
  { to: TRAINING_MODULES_PATH, label: 'nav.modules', section: 'nav.sections.training', icon: SchoolOutlined },
]

export const MODULE_ADD_MENU: AddMenuEntry[] = [{ to: NEW_TRAINING_MODULE_PATH, label: 'addMenu.newModule', icon: SchoolOutlined }]
