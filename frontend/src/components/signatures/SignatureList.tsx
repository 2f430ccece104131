import WarningAmber from '@mui/icons-material/WarningAmber'
import Chip from '@mui/material/Chip'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../lib/dates'
import { InactiveMark } from '../people/InactiveMark'
import type { SignatureOut } from './api'

function When({ date }: { date: string }) {
  const { i18n } = useTranslation()
  return <time dateTime={date}>{formatDateTime(date, i18n.language)}</time>
}

function SignatureItem({ signature }: { signature: SignatureOut }) {
  const { t } = useTranslation()
  const { revoked } = signature
  return (
    <ListItem disableGutters divider sx={{ display: 'block' }}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography
          component="span"
          color={revoked ? 'text.secondary' : 'text.primary'}
          sx={{ fontWeight: 600, textDecoration: revoked ? 'line-through' : 'none' }}
        >
          {signature.userName}
        </Typography>
        {!signature.userActive && <InactiveMark />}
        {signature.modifiedAfterSignature && !revoked && (
          <Chip size="small" color="warning" icon={<WarningAmber />} label={t('signatures.modifiedAfterSignature')} />
        )}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ textDecoration: revoked ? 'line-through' : 'none' }}>
        {t(`signatures.meanings.${signature.meaning}`, { defaultValue: signature.meaning })}
        {' · '}
        {t('signatures.signedOn')} <When date={signature.date} />
      </Typography>
      {revoked && (
        <Typography variant="body2" color="text.secondary">
          {revoked.by ? t('signatures.revokedBy', { name: revoked.by.name }) : t('signatures.revoked')} <When date={revoked.date} />
          {' · '}
          {t(`signatures.reasons.${revoked.reason}`, { defaultValue: revoked.reason })}
        </Typography>
      )}
    </ListItem>
  )
}

/** The signatures of a record, oldest first as the server gives them: who signed (the printed name
 * as it was), what the signature means, when; a signature the record no longer matches is marked
 * "modified after signature"; a revoked one stays, struck through, with when, by whom and why. */
export function SignatureList({ signatures }: { signatures: SignatureOut[] }) {
  const { t } = useTranslation()
  if (signatures.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t('signatures.empty')}
      </Typography>
    )
  }
  return (
    <List aria-label={t('signatures.listLabel')} disablePadding>
      {signatures.map((signature) => (
        <SignatureItem key={signature.id} signature={signature} />
      ))}
    </List>
  )
}
