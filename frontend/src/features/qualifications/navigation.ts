import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined'
import { NEW_QUALIFICATION_PATH, QUALIFICATIONS_PATH } from '../../lib/paths'
import type { AddMenuEntry, NavigationEntry } from '../../lib/navigation'

export const QUALIFICATION_NAVIGATION: NavigationEntry[] = [
  { to: QUALIFICATIONS_PATH, label: 'nav.qualifications', section: 'nav.sections.training', icon: WorkspacePremiumOutlined },
]

export const QUALIFICATION_ADD_MENU: AddMenuEntry[] = [
  { to: NEW_QUALIFICATION_PATH, label: 'addMenu.newQualification', icon: WorkspacePremiumOutlined },
]
