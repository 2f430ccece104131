import Card from '@mui/material/Card'
import CardActionArea from '@mui/material/CardActionArea'
import Chip from '@mui/material/Chip'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import type { ReferenceCard } from './api'

interface ReferenceCardViewProps {
  reference: ReferenceCard
  targeted: boolean
  onOpen: () => void
}

/** A reference of the list: code, label, description and a disabled marker; a click opens its dialog. */
export function ReferenceCardView({ reference, targeted, onOpen }: ReferenceCardViewProps) {
  const { t } = useTranslation()
  return (
    <Card
      variant="outlined"
      component="article"
      aria-label={reference.code}
      sx={(theme) => ({
        mb: 1.25,
        borderLeft: `4px solid ${reference.disabled ? theme.palette.divider : theme.palette.primary.main}`,
        outline: targeted ? `2px solid ${theme.palette.accent.main}` : 'none',
      })}
    >
      <CardActionArea onClick={onOpen} sx={{ px: 2, py: 1.5 }}>
        <Stack direction="row" sx={{ alignItems: 'baseline', flexWrap: 'wrap', columnGap: 1.5, rowGap: 0.5 }}>
          <Typography component="span" sx={{ fontWeight: 700 }}>
            {reference.code}
          </Typography>
          <Typography component="span">{reference.label}</Typography>
          {reference.disabled && <Chip size="small" variant="outlined" label={t('references.list.disabled')} />}
        </Stack>
        {reference.description && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, whiteSpace: 'pre-line' }}>
            {reference.description}
          </Typography>
        )}
      </CardActionArea>
    </Card>
  )
}
