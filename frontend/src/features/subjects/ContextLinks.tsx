import NavigateNext from '@mui/icons-material/NavigateNext'
import Breadcrumbs from '@mui/material/Breadcrumbs'
import Link from '@mui/material/Link'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import type { ContextEntry } from '../../api/types'
import { cartographyPath, functionPath, SITES_PATH, siteOfCartographyPath, subjectPath, subjectsAtPath } from '../../lib/paths'

/** Where each step of a context leads; a site opens the sites page on the cartography that follows it. */
function contextEntryPath(entry: ContextEntry, path: ContextEntry[]): string {
  switch (entry.type) {
    case 'site': {
      const cartography = path.find((other) => other.type === 'cartography')
      return cartography ? siteOfCartographyPath(cartography.id) : SITES_PATH
    }
    case 'cartography':
      return cartographyPath(entry.id)
    case 'function':
      return functionPath(entry.id)
    case 'subject':
      return subjectPath(entry.id)
    default:
      return subjectsAtPath(entry.id)
  }
}

/** One context of an item as links, e.g. site › cartography › function. */
/** Each step at least 24 px high: a target for a thumb (WCAG 2.2, 2.5.8), on a phone at the workstation. */
const THUMB = { display: 'inline-flex', alignItems: 'center', minHeight: 24 }

export function ContextLinks({ path, dense = false }: { path: ContextEntry[]; dense?: boolean }) {
  const { t } = useTranslation()
  return (
    <Breadcrumbs
      separator={<NavigateNext fontSize="small" />}
      aria-label={t('subjects.context')}
      sx={{ typography: dense ? 'body2' : 'body1', '& .MuiBreadcrumbs-separator': { mx: 0.25 } }}
    >
      {path.map((entry) => (
        <Link key={`${entry.type}-${entry.id}`} component={RouterLink} to={contextEntryPath(entry, path)} underline="hover" color="inherit" sx={THUMB}>
          {entry.name}
        </Link>
      ))}
    </Breadcrumbs>
  )
}
