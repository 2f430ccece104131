import BookmarksOutlined from '@mui/icons-material/BookmarksOutlined'
import LabelOutlined from '@mui/icons-material/LabelOutlined'
import { MODULE_REFERENCES_PATH, PATH_REFERENCES_PATH } from '../../lib/paths'
import type { NavigationEntry } from '../../lib/navigation'

export const REFERENCE_NAVIGATION: NavigationEntry[] = [
  { to: MODULE_REFERENCES_PATH, label: 'references.nav.module', section: 'nav.sections.administration', icon: LabelOutlined },
  { to: PATH_REFERENCES_PATH, label: 'references.nav.path', section: 'nav.sections.administration', icon: BookmarksOutlined },
]
