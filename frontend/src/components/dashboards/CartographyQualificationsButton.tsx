import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined'
import Button from '@mui/material/Button'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { whoAmIQuery } from '../../api/queries'
import { cartographyQualificationDashboardPath } from '../../app/paths'
import { holds } from '../../lib/permissions'

const seesDashboards = holds('perm_TableauBord')

/** From a cartography to its qualification dashboard (who is qualified for its functions), for perm_TableauBord holders. */
export function CartographyQualificationsButton({ cartographyId }: { cartographyId: number }) {
  const { t } = useTranslation()
  // Who the user is, as the shell read it: the button adds no request of its own.
  const { data: user } = useQuery({ ...whoAmIQuery, enabled: false })
  if (!user || !seesDashboards(user)) return null
  return (
    <Button
      component={RouterLink}
      to={cartographyQualificationDashboardPath(cartographyId)}
      variant="outlined"
      startIcon={<WorkspacePremiumOutlined />}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {t('dashboardLinks.qualifications')}
    </Button>
  )
}
