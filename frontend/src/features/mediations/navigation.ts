import Handshake from '@mui/icons-material/HandshakeOutlined'
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined'
import { MEDIATIONS_PATH, NEW_MEDIATION_PATH, START_MEDIATION_PATH } from '../../lib/paths'
import type { AddMenuEntry, NavigationEntry } from '../../lib/navigation'

export const MEDIATION_NAVIGATION: NavigationEntry[] = [
  { to: MEDIATIONS_PATH, label: 'nav.mediations', section: 'nav.sections.teamwork', icon: Handshake },
]

export const MEDIATION_ADD_MENU: AddMenuEntry[] = [
  { to: NEW_MEDIATION_PATH, label: 'addMenu.newMediation', icon: Handshake },
  { to: START_MEDIATION_PATH, label: 'addMenu.createAndStart', icon: PlayArrowOutlined },
]
