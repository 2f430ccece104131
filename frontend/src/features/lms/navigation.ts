import CastForEducationOutlined from '@mui/icons-material/CastForEducationOutlined'
import { LMS_PATH } from '../../app/paths'
import type { NavigationEntry } from '../../app/shell/navigation'

// Every signed-in user learns there; uploading and removing courses is decided by the server (perm_TrainingManagement).
const signedIn = () => true

export const LMS_NAVIGATION: NavigationEntry[] = [
  { to: LMS_PATH, label: 'nav.lms', section: 'nav.sections.training', icon: CastForEducationOutlined, allowed: signedIn },
]
