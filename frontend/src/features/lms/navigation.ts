import CastForEducationOutlined from '@mui/icons-material/CastForEducationOutlined'
import { LMS_PATH } from '../../lib/paths'
import type { NavigationEntry } from '../../lib/navigation'

export const LMS_NAVIGATION: NavigationEntry[] = [
  { to: LMS_PATH, label: 'nav.lms', section: 'nav.sections.training', icon: CastForEducationOutlined },
]
