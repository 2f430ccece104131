import Draw from '@mui/icons-material/DrawOutlined'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { SignatureList } from '../../components/signatures/SignatureList'
import { useSignWithReauthentication } from '../../components/signatures/useSignWithReauthentication'
import { type Mediation, signMediation, useMediationChanged } from './api'
import { Section } from './Section'

interface MediationSignaturesProps {
  mediation: Mediation
  onNotice: (message: string) => void
}

/**
 * Every signature of the mediation (revoked ones included) and, for a participant who may sign, what
 * signing means, then the button; the password is asked again when the server requires it.
 */
export function MediationSignatures({ mediation, onNotice }: MediationSignaturesProps) {
  const { t } = useTranslation()
  const meaningId = useId()
  const changed = useMediationChanged()
  const { sign, signing, dialog } = useSignWithReauthentication(() => signMediation(mediation.id), {
    onSigned: (signed) => {
      void changed(signed)
      onNotice(t('mediations.view.signDone'))
    },
  })
  return (
    <Section title={t('mediations.view.signatures')}>
      <SignatureList signatures={mediation.signatures} />
      {mediation.can.sign && (
        <Stack spacing={1.5} sx={{ mt: 2, alignItems: 'flex-start' }}>
          <Alert severity="info" id={meaningId} sx={{ width: '100%', boxSizing: 'border-box' }}>
            {t('mediations.view.signMeaning')}
          </Alert>
          <Button variant="contained" startIcon={<Draw />} onClick={sign} loading={signing} aria-describedby={meaningId}>
            {t('mediations.view.sign')}
          </Button>
        </Stack>
      )}
      {dialog}
    </Section>
  )
}
