import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import i18n from '../../i18n'
import { renderRoutes } from '../../test/render'
import { fakeServer, json } from '../../test/server'
import { V1RedirectionPage } from './LegacyRedirectPage'

const routes = [
  { index: true, Component: () => null },
  { path: 'subjects', Component: () => null },
  { path: 'v1', Component: V1RedirectionPage },
]

function server(legacyBaseUrl: string | null) {
  fakeServer({ 'GET /backend/api/v2/organization/info': () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl }) })
}

describe('the legacy exit without the legacy address', () => {
  it('say the previous version is not configured, with a way home', async () => {
    server(null)
    const { router } = renderRoutes(routes, '/spotv2/v1?to=spot%2FLYON')
    expect(await screen.findByRole('heading', { name: 'The previous version of Spot is not configured' })).toBeInTheDocument()
    expect(document.title).toBe('Previous version not configured - Spot - ACME')
    // Opened from elsewhere: there is no page of the application to go back to.
    expect(screen.queryByRole('button', { name: 'Go back' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Go to home page' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2'))
  })

  it('lead back to the page that followed a legacy link', async () => {
    server(null)
    const { router } = renderRoutes(routes, '/spotv2/subjects')
    await router.navigate('/v1?to=spot%2FLYON%2Ffonction%2FCAR%2Fpdvbas%2FX')
    expect(await screen.findByRole('heading', { name: 'The previous version of Spot is not configured' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Go back' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/subjects'))
  })

  it('speak the chosen language', async () => {
    await i18n.changeLanguage('fr')
    server('')
    renderRoutes(routes, '/spotv2/v1?to=spot%2FLYON')
    expect(await screen.findByRole('heading', { name: "La version précédente de Spot n'est pas configurée" })).toBeInTheDocument()
    expect(document.title).toBe('Version précédente non configurée - Spot - ACME')
  })
})

describe('the legacy exit with the legacy address', () => {
  it('still refuse a target outside the legacy base', async () => {
    server('https://legacy.example/spotv1/')
    renderRoutes(routes, '/spotv2/v1?to=https%3A%2F%2Felsewhere.example%2F')
    expect(await screen.findByRole('heading', { name: 'The page or information sought was not found' })).toBeInTheDocument()
    expect(document.title).toBe('Page not found - Spot - ACME')
  })
})
