import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined'
import BadgeOutlined from '@mui/icons-material/BadgeOutlined'
import FactoryOutlined from '@mui/icons-material/FactoryOutlined'
import MapOutlined from '@mui/icons-material/MapOutlined'
import type { NavigationEntry } from '../../app/shell/navigation'

const signedIn = () => true

/** The map's drawer entries, open to every signed-in user (what each sees is up to the server). */
export const MAPPING_NAVIGATION: NavigationEntry[] = [
  { to: '/sites', label: 'mapping.nav.sites', section: 'mapping.nav.section', icon: FactoryOutlined, allowed: signedIn },
  { to: '/cartographies', label: 'mapping.nav.cartographies', section: 'mapping.nav.section', icon: MapOutlined, allowed: signedIn },
  { to: '/functions', label: 'mapping.nav.functions', section: 'mapping.nav.section', icon: BadgeOutlined, allowed: signedIn },
  { to: '/subjects', label: 'mapping.nav.subjects', section: 'mapping.nav.section', icon: AccountTreeOutlined, allowed: signedIn },
]
