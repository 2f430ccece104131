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
import { v1RedirectionPath } from '../../app/paths'
import type { SubjectCard } from './api'
import { legacyTargets } from './legacy'

type LegacySubject = Pick<SubjectCard, 'code' | 'hasDiagram' | 'lifetimeEvents' | 'contexts'>

/**
 * The mind map, diagram and standardized mind map of the legacy application; absent when no
 * legacy address is set or when the subject has no context. Compact: icons only (list cards).
 */
export function LegacyButtons({ subject, compact = false }: { subject: LegacySubject; compact?: boolean }) {
  const { t } = useTranslation()
  const { data: organization } = useQuery(organizationInfoQuery)
  const targets = legacyTargets(subject)
  if (!organization?.legacyBaseUrl || !targets) return null
  const buttons: [string, string | undefined, typeof SvgIcon][] = [
    ['subjects.legacy.mindMap', targets.mindMap, AccountTreeOutlined],
    ['subjects.legacy.diagram', targets.diagram, SchemaOutlined],
    ['subjects.legacy.standardized', targets.standardized, VerifiedOutlined],
  ]
  return (
    <Stack direction="row" spacing={compact ? 0 : 1} sx={{ flexWrap: 'wrap' }}>
      {buttons.map(([label, target, Icon]) =>
        target === undefined ? null : compact ? (
          <Tooltip key={label} title={t(label)}>
            <IconButton size="small" component={RouterLink} to={v1RedirectionPath(target)} aria-label={t(label)}>
              <Icon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : (
          <Button key={label} size="small" variant="outlined" component={RouterLink} to={v1RedirectionPath(target)} startIcon={<Icon />}>
            {t(label)}
          </Button>
        ),
      )}
    </Stack>
  )
}
