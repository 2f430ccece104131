import GridOnOutlined from '@mui/icons-material/GridOnOutlined'
import Button from '@mui/material/Button'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { whoAmIQuery } from '../../api/queries'
import { skillsMatrixPath } from '../../lib/paths'
import { mayOpen } from '../../lib/routes'

/** From a cartography (its page, its qualification dashboard) to its skills matrix, for those who may open it. */
export function SkillsMatrixButton({ cartographyId }: { cartographyId: number }) {
  const { t } = useTranslation()
  // Who the user is, as the shell read it: the button adds no request of its own.
  const { data: user } = useQuery({ ...whoAmIQuery, enabled: false })
  const to = skillsMatrixPath(cartographyId)
  if (!mayOpen(user, to)) return null
  return (
    <Button component={RouterLink} to={to} variant="outlined" startIcon={<GridOnOutlined />} sx={{ whiteSpace: 'nowrap' }}>
      {t('dashboardLinks.skillsMatrix')}
    </Button>
  )
}
