import Chip from '@mui/material/Chip'
import { useTranslation } from 'react-i18next'

/** Beside the name of a person who left (deactivated): they stay named wherever they appear, marked so. */
export function InactiveMark({ title }: { title?: string }) {
  const { t } = useTranslation()
  return <Chip label={t('people.inactive')} size="small" variant="outlined" title={title} sx={{ ml: 1, fontWeight: 400, verticalAlign: 'baseline' }} />
}
