import RouteOutlined from '@mui/icons-material/RouteOutlined'
import { NEW_TRAINING_PATH_PATH, TRAINING_PATHS_PATH } from '../../app/paths'
import type { AddMenuEntry, NavigationEntry } from '../../app/shell/navigation'
import { holds } from '../../lib/permissions'

// Any signed-in user has paths to follow, referee or read (the server lists those each may read).
const signedIn = () => true

export const PATH_NAVIGATION: NavigationEntry[] = [
  { to: TRAINING_PATHS_PATH, label: 'nav.paths', section: 'nav.sections.training', icon: RouteOutlined, allowed: signedIn },
]

export const PATH_ADD_MENU: AddMenuEntry[] = [
  { to: NEW_TRAINING_PATH_PATH, label: 'addMenu.newTrainingPath', icon: RouteOutlined, allowed: holds('perm_TrainingManagement') },
]
