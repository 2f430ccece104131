import ArrowBack from '@mui/icons-material/ArrowBack'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { MY_DASHBOARD_PATH } from '../../lib/paths'

/** Back to the previous page (spec 2 §2); a dashboard opened from outside the application leads to My dashboard. */
export function BackButton() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const location = useLocation()
  // The first page of a visit has the default key: there is no previous page of the application.
  const first = location.key === 'default'
  return (
    <Box sx={{ mt: 3 }}>
      <Button variant="outlined" startIcon={<ArrowBack />} onClick={() => void (first ? navigate(MY_DASHBOARD_PATH) : navigate(-1))}>
        {t('actions.goBack')}
      </Button>
    </Box>
  )
}
