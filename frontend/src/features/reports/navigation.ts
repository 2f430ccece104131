import SummarizeOutlined from '@mui/icons-material/SummarizeOutlined'
import { TRAINING_PATH_REPORT_PATH } from '../../app/paths'
import type { NavigationEntry } from '../../app/shell/navigation'
import { mayReport } from './permissions'

export const REPORT_NAVIGATION: NavigationEntry[] = [
  { to: TRAINING_PATH_REPORT_PATH, label: 'nav.trainingPathReport', section: 'nav.sections.administration', icon: SummarizeOutlined, allowed: mayReport },
]
