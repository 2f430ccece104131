import Handshake from '@mui/icons-material/HandshakeOutlined'
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined'
import { MEDIATIONS_PATH, NEW_MEDIATION_PATH, START_MEDIATION_PATH } from '../../app/paths'
import type { AddMenuEntry, NavigationEntry } from '../../app/shell/navigation'

// Any signed-in user may create mediations (spec 1 §6); which ones each reads is up to the server.
const signedIn = () => true

export const MEDIATION_NAVIGATION: NavigationEntry[] = [
  { to: MEDIATIONS_PATH, label: 'nav.mediations', section: 'nav.sections.teamwork', icon: Handshake, allowed: signedIn },
]

export const MEDIATION_ADD_MENU: AddMenuEntry[] = [
  { to: NEW_MEDIATION_PATH, label: 'addMenu.newMediation', icon: Handshake, allowed: signedIn },
  { to: START_MEDIATION_PATH, label: 'addMenu.createAndStart', icon: PlayArrowOutlined, allowed: signedIn },
]
