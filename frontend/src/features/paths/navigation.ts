import RouteOutlined from '@mui/icons-material/RouteOutlined'
import { NEW_TRAINING_PATH_PATH, TRAINING_PATHS_PATH } from '../../lib/paths'
import type { AddMenuEntry, NavigationEntry } from '../../lib/navigation'

export const PATH_NAVIGATION: NavigationEntry[] = [
  { to: TRAINING_PATHS_PATH, label: 'nav.paths', section: 'nav.sections.training', icon: RouteOutlined },
]

export const PATH_ADD_MENU: AddMenuEntry[] = [
  { to: NEW_TRAINING_PATH_PATH, label: 'addMenu.newTrainingPath', icon: RouteOutlined },
]
