import DashboardOutlined from '@mui/icons-material/DashboardOutlined'
import InsightsOutlined from '@mui/icons-material/InsightsOutlined'
import SupervisorAccountOutlined from '@mui/icons-material/SupervisorAccountOutlined'
import TrendingUpOutlined from '@mui/icons-material/TrendingUpOutlined'
import { CONTRIBUTIONS_DASHBOARD_PATH, MANAGER_DASHBOARD_PATH, MY_DASHBOARD_PATH, TRAINING_PATH_DASHBOARD_PATH } from '../../lib/paths'
import type { NavigationEntry } from '../../lib/navigation'

/** The dashboards' drawer entries (spec 1 §2): My dashboard, Dashboard manager, Paths progress, Contributions. */
export const DASHBOARD_NAVIGATION: NavigationEntry[] = [
  { to: MY_DASHBOARD_PATH, label: 'nav.myDashboard', section: 'nav.sections.dashboards', icon: DashboardOutlined },
  { to: MANAGER_DASHBOARD_PATH, label: 'nav.managerDashboard', section: 'nav.sections.dashboards', icon: SupervisorAccountOutlined },
  { to: TRAINING_PATH_DASHBOARD_PATH, label: 'nav.trainingPathDashboard', section: 'nav.sections.dashboards', icon: TrendingUpOutlined },
  { to: CONTRIBUTIONS_DASHBOARD_PATH, label: 'nav.contributionsDashboard', section: 'nav.sections.dashboards', icon: InsightsOutlined },
]
