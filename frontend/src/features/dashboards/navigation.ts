import DashboardOutlined from '@mui/icons-material/DashboardOutlined'
import InsightsOutlined from '@mui/icons-material/InsightsOutlined'
import SupervisorAccountOutlined from '@mui/icons-material/SupervisorAccountOutlined'
import TrendingUpOutlined from '@mui/icons-material/TrendingUpOutlined'
import { CONTRIBUTIONS_DASHBOARD_PATH, MANAGER_DASHBOARD_PATH, MY_DASHBOARD_PATH, TRAINING_PATH_DASHBOARD_PATH } from '../../app/paths'
import type { NavigationEntry } from '../../app/shell/navigation'
import { holds } from '../../lib/permissions'

// Everyone has a dashboard of their own (their paths, what awaits them).
const signedIn = () => true

/** The dashboards' drawer entries (spec 1 §2): My dashboard, Dashboard manager, Paths progress, Contributions. */
export const DASHBOARD_NAVIGATION: NavigationEntry[] = [
  { to: MY_DASHBOARD_PATH, label: 'nav.myDashboard', section: 'nav.sections.dashboards', icon: DashboardOutlined, allowed: signedIn },
  { to: MANAGER_DASHBOARD_PATH, label: 'nav.managerDashboard', section: 'nav.sections.dashboards', icon: SupervisorAccountOutlined, allowed: holds('perm_TableauBord') },
  { to: TRAINING_PATH_DASHBOARD_PATH, label: 'nav.trainingPathDashboard', section: 'nav.sections.dashboards', icon: TrendingUpOutlined, allowed: holds('perm_TableauBord') },
  { to: CONTRIBUTIONS_DASHBOARD_PATH, label: 'nav.contributionsDashboard', section: 'nav.sections.dashboards', icon: InsightsOutlined, allowed: holds('perm_VisuTrack') },
]
