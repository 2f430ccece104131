import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined'
import BadgeOutlined from '@mui/icons-material/BadgeOutlined'
import FactoryOutlined from '@mui/icons-material/FactoryOutlined'
import MapOutlined from '@mui/icons-material/MapOutlined'
import { CARTOGRAPHIES_PATH, FUNCTIONS_PATH, SITES_PATH, SUBJECTS_PATH } from '../../lib/paths'
import type { NavigationEntry } from '../../lib/navigation'

/** The map's drawer entries, open to every signed-in user (what each sees is up to the server). */
export const MAPPING_NAVIGATION: NavigationEntry[] = [
  { to: SITES_PATH, label: 'nav.sites', section: 'nav.sections.mapping', icon: FactoryOutlined },
  { to: CARTOGRAPHIES_PATH, label: 'nav.cartographies', section: 'nav.sections.mapping', icon: MapOutlined },
  { to: FUNCTIONS_PATH, label: 'nav.functions', section: 'nav.sections.mapping', icon: BadgeOutlined },
  { to: SUBJECTS_PATH, label: 'nav.subjects', section: 'nav.sections.mapping', icon: AccountTreeOutlined },
]
