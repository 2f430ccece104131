import NavigateNext from '@mui/icons-material/NavigateNext'
import Breadcrumbs from '@mui/material/Breadcrumbs'
import Chip from '@mui/material/Chip'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import type SvgIcon from '@mui/material/SvgIcon'
import Tooltip from '@mui/material/Tooltip'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import type { ContextEntry } from '../../api/types'
import { cartographyPath, siteOfCartographyPath } from '../../lib/paths'

interface MapItemCardProps {
  icon: typeof SvgIcon
  name: string
  code: string
  /** Where the name leads. */
  to: string
  /** The item's site, then its cartography for what is inside one. */
  context: ContextEntry[]
  /** The cartography whose site a site link opens on the sites page. */
  cartographyId: number
  /** What the context is to assistive technologies, e.g. "Where the function is". */
  contextLabel: string
}

/** An item of the cartography or function list: its name and code, and where it is, as links. */
export function MapItemCard({ icon: Icon, name, code, to, context, cartographyId, contextLabel }: MapItemCardProps) {
  const { t } = useTranslation()
  return (
    <Paper variant="outlined" component="article" aria-label={name} sx={{ px: 2, py: 1.25 }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1.25, flexWrap: 'wrap' }}>
        <Icon color="primary" fontSize="small" />
        <Link component={RouterLink} to={to} underline="hover" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {name}
        </Link>
        <Tooltip title={t('mapping.code')}>
          <Chip size="small" variant="outlined" label={code} />
        </Tooltip>
      </Stack>
      <Breadcrumbs
        separator={<NavigateNext fontSize="small" />}
        aria-label={contextLabel}
        sx={{ typography: 'body2', color: 'text.secondary', mt: 0.25, ml: 4.25, '& .MuiBreadcrumbs-separator': { mx: 0.25 } }}
      >
        {context.map((entry) => (
          <Link
            key={`${entry.type}-${entry.id}`}
            component={RouterLink}
            to={entry.type === 'site' ? siteOfCartographyPath(cartographyId) : cartographyPath(entry.id)}
            underline="hover"
            color="inherit"
          >
            {entry.name}
          </Link>
        ))}
      </Breadcrumbs>
    </Paper>
  )
}
