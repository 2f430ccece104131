import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined'
import SchemaOutlined from '@mui/icons-material/SchemaOutlined'
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import Stack from '@mui/material/Stack'
import type SvgIcon from '@mui/material/SvgIcon'
import Tooltip from '@mui/material/Tooltip'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { organizationInfoQuery } from '../../api/queries'
import type { SubjectCard } from './api'
import { subjectViewLinks } from './legacy'

type ViewSubject = Pick<SubjectCard, 'id' | 'code' | 'hasDiagram' | 'lifetimeEvents' | 'contexts'>

/**
 * The buttons to the subject's mind map, diagram (only with a diagram) and standardized mind map
 * (only when standardized), spec 1 §2. With a legacy address they lead to the legacy application
 * through V1Redirection, and are absent for a subject without a context; without one they lead to
 * Spot's own views. Compact: icons only (list cards).
 */
export function LegacyButtons({ subject, compact = false }: { subject: ViewSubject; compact?: boolean }) {
  const { t } = useTranslation()
  const { data: organization } = useQuery(organizationInfoQuery)
  const links = organization && subjectViewLinks(subject, organization.legacyBaseUrl)
  if (!links) return null
  const buttons: [string, string | undefined, typeof SvgIcon][] = [
    ['subjects.legacy.mindMap', links.mindMap, AccountTreeOutlined],
    ['subjects.legacy.diagram', links.diagram, SchemaOutlined],
    ['subjects.legacy.standardized', links.standardized, VerifiedOutlined],
  ]
  return (
    <Stack direction="row" spacing={compact ? 0 : 1} useFlexGap sx={{ flexWrap: 'wrap', rowGap: 1 }}>
      {buttons.map(([label, to, Icon]) =>
        to === undefined ? null : compact ? (
          <Tooltip key={label} title={t(label)}>
            <IconButton size="small" component={RouterLink} to={to} aria-label={t(label)}>
              <Icon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : (
          <Button key={label} size="small" variant="outlined" component={RouterLink} to={to} startIcon={<Icon />}>
            {t(label)}
          </Button>
        ),
      )}
    </Stack>
  )
}
