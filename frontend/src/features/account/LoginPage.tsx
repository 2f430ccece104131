import { zodResolver } from '@hookform/resolvers/zod'
import LoginOutlined from '@mui/icons-material/LoginOutlined'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Divider from '@mui/material/Divider'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { type NavigateFunction, useNavigate, useSearchParams } from 'react-router'
import { z } from 'zod'
import { isApiError } from '../../api/errors'
import { APP_LOGO_URL, organizationInfoQuery } from '../../api/queries'
import type { IdentityProvider } from '../../api/types'
import { LanguageSwitch } from '../../components/LanguageSwitch'
import { TextInput } from '../../components/TextInput'
import { useThrottledMessage } from '../../lib/messages'
import { usePageTitle } from '../../lib/pageTitle'
import { appPath, getToken, openSession } from '../../lib/session'
import { identityProvidersQuery, login, type SignedIn } from './api'
import { loginTarget, SSO_ERROR, SSO_TOKEN } from './target'

const LOGIN_ERROR = 'loginError'

const schema = z.object({
  username: z.string().refine((value) => value.trim() !== '', LOGIN_ERROR),
  password: z.string().min(1, LOGIN_ERROR),
})
type LoginForm = z.infer<typeof schema>

function goTo(url: string, navigate: NavigateFunction): void {
  const path = appPath(url)
  if (path === undefined) window.location.assign(url)
  else void navigate(path, { replace: true })
}

function ProviderButton({ provider }: { provider: IdentityProvider }) {
  const { t } = useTranslation()
  return (
    <Button
      variant="outlined"
      color="secondary"
      fullWidth
      href={provider.loginUrl}
      startIcon={provider.iconUrl ? <Box component="img" src={provider.iconUrl} alt="" sx={{ width: 20, height: 20 }} /> : undefined}
    >
      {t('login.withProvider', { name: provider.name })}
    </Button>
  )
}

/**
 * Back from an identity provider, the server puts the new session token in the fragment (never
 * sent to a server): take it, and wipe it from the address bar and history at once.
 */
function takeProviderToken(): boolean {
  const token = new URLSearchParams(window.location.hash.slice(1)).get(SSO_TOKEN)
  if (!token) return false
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search)
  openSession(token)
  return true
}

// The server's answer when a deactivated person gives the right password, or comes back from a provider.
const ACCOUNT_DEACTIVATED = 'accountDeactivated'

export function LoginPage() {
  const { t } = useTranslation()
  const throttledMessage = useThrottledMessage()
  usePageTitle(t('pageTitles.login'))
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [search] = useSearchParams()
  const target = loginTarget(search)
  const [tookProviderToken] = useState(takeProviderToken)
  const signedIn = tookProviderToken || getToken() !== undefined
  const providerError = search.get(SSO_ERROR)

  const { data: organization } = useQuery(organizationInfoQuery)
  const { data: providers = [] } = useQuery({ ...identityProvidersQuery(target), enabled: !signedIn })
  // Wrong passwords were given for this login since its last sign-in: said once, before going on.
  const [guessed, setGuessed] = useState<SignedIn>()
  const { control, handleSubmit, formState } = useForm<LoginForm>({
    resolver: zodResolver(schema),
    defaultValues: { username: '', password: '' },
  })
  const signIn = useMutation({
    mutationFn: (form: LoginForm) => login({ ...form, returnUrl: target }),
    meta: { handledStatuses: [401, 429] },
    onSuccess: (result) => {
      if (result.failedAttempts > 0) setGuessed(result)
      else enter(result)
    },
  })

  function enter({ token, redirectUrl }: SignedIn) {
    queryClient.clear()
    openSession(token)
    goTo(redirectUrl, navigate)
  }

  useEffect(() => {
    if (signedIn) goTo(target, navigate)
  }, [signedIn, target, navigate])

  const formInvalid = Object.keys(formState.errors).length > 0
  let failure: string | undefined
  if (formInvalid) failure = t('codes.loginError')
  else if (isApiError(signIn.error, 401)) failure = t(signIn.error.message === ACCOUNT_DEACTIVATED ? 'login.accountDeactivated' : 'login.badCredentials')
  else if (isApiError(signIn.error, 429)) failure = throttledMessage(signIn.error)
  // Why signing in through a provider failed, as the server said (its message key).
  else if (providerError === ACCOUNT_DEACTIVATED && !signIn.isPending) failure = t('login.accountDeactivated')
  else if (providerError && !signIn.isPending) failure = t(`login.sso.${providerError}`, { defaultValue: t('login.sso.identityProviderRefused') })

  if (signedIn) return null
  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        background: (theme) => `linear-gradient(160deg, ${theme.palette.primary.main} 0%, ${theme.palette.accent.main} 100%)`,
      }}
    >
      <Paper elevation={6} sx={{ width: 420, maxWidth: '100%', p: { xs: 3, sm: 5 }, position: 'relative' }}>
        <Box sx={{ position: 'absolute', top: 16, right: 16 }}>
          <LanguageSwitch />
        </Box>
        <Stack spacing={1} sx={{ alignItems: 'center', mb: 3, mt: 2 }}>
          <Box component="img" src={APP_LOGO_URL} alt="" sx={{ height: 56 }} />
          <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
            {organization?.applicationName ?? t('app.name')}
          </Typography>
          {organization?.customerName && <Typography color="text.secondary">{organization.customerName}</Typography>}
        </Stack>
        <Typography variant="subtitle1" sx={{ mb: 2 }}>
          {t('login.title')}
        </Typography>
        {guessed && (
          <Stack spacing={2}>
            <Alert severity="warning" role="alert">
              {t('login.failedAttempts', { count: guessed.failedAttempts })}
            </Alert>
            <Button variant="contained" size="large" autoFocus onClick={() => enter(guessed)}>
              {t('login.continue')}
            </Button>
          </Stack>
        )}
        <form hidden={guessed !== undefined} onSubmit={(event) => void handleSubmit((form) => signIn.mutate(form))(event)} noValidate>
          <Stack spacing={1}>
            <TextInput control={control} name="username" label={t('login.username')} autoComplete="username" autoFocus showMessage={false} />
            <TextInput control={control} name="password" label={t('login.password')} type="password" autoComplete="current-password" showMessage={false} />
            {failure && (
              <Alert severity="error" role="alert">
                {failure}
              </Alert>
            )}
            <Button type="submit" variant="contained" size="large" loading={signIn.isPending} startIcon={<LoginOutlined />}>
              {t('login.submit')}
            </Button>
          </Stack>
        </form>
        {providers.length > 0 && (
          <>
            <Divider sx={{ my: 3 }}>{t('login.or')}</Divider>
            <Stack spacing={1}>
              {providers.map((provider) => (
                <ProviderButton key={provider.name} provider={provider} />
              ))}
            </Stack>
          </>
        )}
      </Paper>
    </Box>
  )
}
