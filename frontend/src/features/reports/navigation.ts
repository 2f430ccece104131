import SummarizeOutlined from '@mui/icons-material/SummarizeOutlined'
import { TRAINING_PATH_REPORT_PATH } from '../../lib/paths'
import type { NavigationEntry } from '../../lib/navigation'

export const REPORT_NAVIGATION: NavigationEntry[] = [
  { to: TRAINING_PATH_REPORT_PATH, label: 'nav.trainingPathReport', section: 'nav.sections.administration', icon: SummarizeOutlined },
]
