import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined'
import Button from '@mui/material/Button'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { whoAmIQuery } from '../../api/queries'
import { cartographyQualificationDashboardPath } from '../../lib/paths'
import { mayOpen } from '../../lib/routes'

/** From a cartography to its qualification dashboard (who is qualified for its functions), for those who may open it. */
export function CartographyQualificationsButton({ cartographyId }: { cartographyId: number }) {
  const { t } = useTranslation()
  // Who the user is, as the shell read it: the button adds no request of its own.
  const { data: user } = useQuery({ ...whoAmIQuery, enabled: false })
  const to = cartographyQualificationDashboardPath(cartographyId)
  if (!mayOpen(user, to)) return null
  return (
    <Button
      component={RouterLink}
      to={to}
      variant="outlined"
      startIcon={<WorkspacePremiumOutlined />}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {t('dashboardLinks.qualifications')}
    </Button>
  )
}
