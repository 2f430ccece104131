import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined'
import { NEW_QUALIFICATION_PATH, QUALIFICATIONS_PATH } from '../../app/paths'
import type { AddMenuEntry, NavigationEntry } from '../../app/shell/navigation'
import { mayCreateQualification } from './permissions'

// Everyone signed in reads qualifications: people must know what they must hold.
const signedIn = () => true

export const QUALIFICATION_NAVIGATION: NavigationEntry[] = [
  { to: QUALIFICATIONS_PATH, label: 'nav.qualifications', section: 'nav.sections.training', icon: WorkspacePremiumOutlined, allowed: signedIn },
]

export const QUALIFICATION_ADD_MENU: AddMenuEntry[] = [
  { to: NEW_QUALIFICATION_PATH, label: 'addMenu.newQualification', icon: WorkspacePremiumOutlined, allowed: mayCreateQualification },
]
