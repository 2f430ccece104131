import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import Cookies from 'js-cookie'
import { describe, expect, it } from 'vitest'
import i18n from '../../i18n'
import { storeToken } from '../../lib/session'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests, throttled } from '../../test/server'
import { LoginPage } from './LoginPage'

const LOGIN = 'POST /backend/api/v2/account/login'
const PROVIDERS = 'GET /backend/api/v2/account/identity-providers'

function server(login: () => Response) {
  return fakeServer({
    'GET /backend/api/v2/organization/info': () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null }),
    [PROVIDERS]: () => json([{ name: 'Entra ID', loginUrl: 'https://idp.example/authorize?x=1', iconUrl: '' }]),
    [LOGIN]: login,
  })
}

const routes = [
  { path: '/login', Component: LoginPage },
  { path: '*', Component: () => null },
]

async function signIn(username: string, password: string) {
  if (username) await userEvent.type(screen.getByLabelText('Login'), username)
  if (password) await userEvent.type(screen.getByLabelText('Password'), password)
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
}

describe('login page', () => {
  it('asks for both login and password before calling the server', async () => {
    const fetchMock = server(() => json({ token: 't', redirectUrl: '/spotv2/' }))
    renderRoutes(routes, '/spotv2/login')
    await signIn('', '')
    expect(await screen.findByText('Enter your login and your password')).toBeInTheDocument()
    await signIn('admin', '')
    expect(screen.getByText('Enter your login and your password')).toBeInTheDocument()
    expect(sentRequests(fetchMock, LOGIN)).toHaveLength(0)
  })

  it('says the credentials were refused on 401, without the error dialog', async () => {
    server(() => errorBody(401, 'Unauthorized', 'Invalid login or password'))
    renderRoutes(routes, '/spotv2/login')
    await signIn('admin', 'wrong')
    expect(await screen.findByText('Bad identifier or password. Connection refused')).toBeInTheDocument()
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
    expect(Cookies.get('userToken')).toBeUndefined()
  })

  it('says how long the throttle makes one wait, from its Retry-After', async () => {
    server(() => throttled(30))
    renderRoutes(routes, '/spotv2/login')
    await signIn('admin', 'wrong')
    expect(await screen.findByText('Too many failed attempts. Try again in 30 s.')).toBeInTheDocument()
  })

  it('says a longer wait in minutes, rounded up, in French too', async () => {
    await act(() => i18n.changeLanguage('fr'))
    server(() => throttled(61))
    renderRoutes(routes, '/spotv2/login')
    await userEvent.type(screen.getByLabelText('Identifiant'), 'admin')
    await userEvent.type(screen.getByLabelText('Mot de passe'), 'wrong')
    await userEvent.click(screen.getByRole('button', { name: 'Se connecter' }))
    expect(await screen.findByText('Trop de tentatives échouées. Réessayez dans 2 min.')).toBeInTheDocument()
  })

  it('keeps the token and goes to the returnUrl, with the other query parameters carried over', async () => {
    const fetchMock = server(() => json({ token: 'new-token', redirectUrl: '/spotv2/administration/users?tab=groups' }))
    const { router } = renderRoutes(routes, '/spotv2/login?returnUrl=/spotv2/administration/users&tab=groups')
    await signIn('admin', 'secret')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/administration/users'))
    expect(router.state.location.search).toBe('?tab=groups')
    expect(Cookies.get('userToken')).toBe('new-token')
    const body: unknown = await sentRequests(fetchMock, LOGIN)[0].json()
    expect(body).toEqual({ username: 'admin', password: 'secret', returnUrl: '/spotv2/administration/users?tab=groups' })
  })

  it('says once how many wrong passwords were given since the last sign-in, then goes on', async () => {
    server(() => json({ token: 'new-token', redirectUrl: '/spotv2/sites', failedAttempts: 3 }))
    const { router } = renderRoutes(routes, '/spotv2/login?returnUrl=/spotv2/sites')
    await signIn('admin', 'secret')
    expect(await screen.findByText(/3 wrong passwords were given for your login since your last sign-in/)).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/spotv2/login')
    expect(Cookies.get('userToken')).toBeUndefined()
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/sites'))
    expect(Cookies.get('userToken')).toBe('new-token')
  })

  it('offers the identity providers, telling them where to come back', async () => {
    const fetchMock = server(() => json({}))
    renderRoutes(routes, '/spotv2/login?returnUrl=/spotv2/administration/users')
    const button = await screen.findByRole('link', { name: 'Sign in with Entra ID' })
    expect(button).toHaveAttribute('href', 'https://idp.example/authorize?x=1')
    const asked = new URL(sentRequests(fetchMock, PROVIDERS)[0].url)
    expect(asked.searchParams.get('redirectUrl')).toBe('/spotv2/administration/users')
  })

  it('sends an already signed-in user on at once', async () => {
    server(() => json({}))
    storeToken('existing')
    const { router } = renderRoutes(routes, '/spotv2/login?returnUrl=/spotv2/administration/permissions')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/administration/permissions'))
  })

  it('takes the session an identity provider opened, and wipes the token from the address', async () => {
    server(() => json({}))
    window.history.replaceState(null, '', '/spotv2/login?returnUrl=/spotv2/sites#ssoToken=from-provider')
    const { router } = renderRoutes(routes, '/spotv2/login?returnUrl=/spotv2/sites')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/sites'))
    expect(Cookies.get('userToken')).toBe('from-provider')
    expect(window.location.hash).toBe('')
  })

  it.each([
    ['unknownExternalUser', /This account is not known to Spot/],
    ['identityProviderCancelled', /Sign-in cancelled at the identity provider/],
    ['identityProviderUnreachable', /The identity provider does not answer/],
    ['invalidSignInState', /The sign-in request expired/],
    ['somethingNew', /The identity provider refused the sign-in/],
  ])('says why the identity provider sign-in failed (%s)', async (code, text) => {
    server(() => json({}))
    renderRoutes(routes, `/spotv2/login?ssoError=${code}`)
    expect(await screen.findByText(text)).toBeInTheDocument()
  })

  it('says when the account is deactivated, after the provider or the right password', async () => {
    server(() => json({}))
    renderRoutes(routes, '/spotv2/login?ssoError=accountDeactivated')
    expect(await screen.findByText(/This account is deactivated/)).toBeInTheDocument()
  })

  it('is titled with its name, the application and the customer, in the chosen language', async () => {
    server(() => json({}))
    renderRoutes(routes, '/spotv2/login')
    await waitFor(() => expect(document.title).toBe('Sign in - Spot - ACME'))
    await act(() => i18n.changeLanguage('fr'))
    expect(document.title).toBe('Connexion - Spot - ACME')
  })
})
