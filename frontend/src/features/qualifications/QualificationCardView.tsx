import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { qualificationPath } from '../../lib/paths'
import type { QualificationCard } from './api'

const names = (items: { name: string }[]) => items.map((item) => item.name).join(', ')

/** A qualification of the list: its name (to its view), then its cartographies, groups and modules. */
export function QualificationCardView({ qualification, targeted }: { qualification: QualificationCard; targeted: boolean }) {
  const { t } = useTranslation()
  const facts: [string, { name: string }[]][] = [
    ['qualifications.fields.cartographies', qualification.cartographies],
    ['qualifications.fields.qualifiableGroups', qualification.qualifiableGroups],
    ['qualifications.fields.modules', qualification.modules],
  ]
  return (
    <Paper
      variant="outlined"
      component="article"
      aria-label={qualification.name}
      sx={(theme) => ({
        px: 2,
        py: 1.5,
        mb: 1.25,
        borderLeft: `4px solid ${theme.palette.primary.main}`,
        outline: targeted ? `2px solid ${theme.palette.accent.main}` : 'none',
      })}
    >
      <Link component={RouterLink} to={qualificationPath(qualification.id)} underline="hover" sx={{ fontWeight: 600, fontSize: '1.02rem', overflowWrap: 'anywhere' }}>
        {qualification.name}
      </Link>
      {facts.map(([label, items]) => (
        <Typography key={label} variant="body2" color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
          <Typography component="span" variant="body2" sx={{ fontWeight: 600, color: 'text.primary' }}>
            {t(label)}
          </Typography>
          {t('qualifications.list.separator')}
          {items.length === 0 ? t('qualifications.list.none') : names(items)}
        </Typography>
      ))}
    </Paper>
  )
}
