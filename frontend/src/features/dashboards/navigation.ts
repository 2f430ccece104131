import DashboardOutlined from '@mui/icons-material/DashboardOutlined'
import InsightsOutlined from '@mui/icons-material/InsightsOutlined'
import TrendingUpOutlined from '@mui/icons-material/TrendingUpOutlined'
import { CONTRIBUTIONS_DASHBOARD_PATH, MY_DASHBOARD_PATH, TRAINING_PATH_DASHBOARD_PATH } from '../../app/paths'
import type { NavigationEntry } from '../../app/shell/navigation'
import { holds } from '../../lib/permissions'

// Everyone has a dashboard of their own (their paths, what awaits them).
const signedIn = () => true

/** The dashboards' drawer entries (spec 1 §2): My dashboard, Paths progress, Contributions. */
export const DASHBOARD_NAVIGATION: NavigationEntry[] = [
  { to: MY_DASHBOARD_PATH, label: 'dashboards.nav.mine', section: 'dashboards.nav.section', icon: DashboardOutlined, allowed: signedIn },
  { to: TRAINING_PATH_DASHBOARD_PATH, label: 'dashboards.nav.trainingPath', section: 'dashboards.nav.section', icon: TrendingUpOutlined, allowed: holds('perm_TableauBord') },
  { to: CONTRIBUTIONS_DASHBOARD_PATH, label: 'dashboards.nav.contributions', section: 'dashboards.nav.section', icon: InsightsOutlined, allowed: holds('perm_VisuTrack') },
]
