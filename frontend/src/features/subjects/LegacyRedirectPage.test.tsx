import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import i18n from '../../i18n'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { V1RedirectionPage } from './LegacyRedirectPage'

const routes = [
  { index: true, Component: () => null },
  { path: 'subjects', Component: () => null },
  { path: 'subject/:subjectId/mindmap', Component: () => null },
  { path: 'subject/:subjectId/mindmap/standardized', Component: () => null },
  { path: 'subject/:subjectId/diagram', Component: () => null },
  { path: 'forbidden', Component: () => null },
  { path: 'v1', Component: V1RedirectionPage },
]

const TARGET = 'GET /backend/api/v2/legacy/target'

function server(legacyBaseUrl: string | null, target?: () => Response) {
  return fakeServer({
    'GET /backend/api/v2/organization/info': () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl }),
    ...(target && { [TARGET]: target }),
  })
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
    await router.navigate('/v1?to=spot%2FLYON')
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

describe('a legacy mind-map or diagram address without the legacy address', () => {
  it.each([
    ['mindMap', 'spot/LYON/fonction/CAR/pdvhaut/USI-002//', '/spotv2/subject/5/mindmap'],
    ['standardized', 'spot/LYON/fonction/CAR/pdvhaut/USI-002/standard', '/spotv2/subject/5/mindmap/standardized'],
    ['diagram', 'spot/LYON/fonction/CAR/pdvbas/USI-002', '/spotv2/subject/5/diagram'],
  ])('opens Spot\'s own %s view in place of the redirection', async (view, to, pathname) => {
    const fetchMock = server(null, () => json({ view, subjectId: 5 }))
    const { router } = renderRoutes(routes, '/spotv2/subjects')
    await router.navigate(`/v1?to=${encodeURIComponent(to)}`)
    await waitFor(() => expect(router.state.location.pathname).toBe(pathname))
    expect(new URL(sentRequests(fetchMock, TARGET)[0].url).searchParams.get('to')).toBe(to)
    // Replaced: going back leads to the page that followed the link, not to the redirection again.
    await router.navigate(-1)
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/subjects'))
  })

  it("opens Spot's page of a legacy function address", async () => {
    const fetchMock = server(null, () => json({ view: 'function', functionId: 12 }))
    const { router } = renderRoutes([...routes, { path: 'function/:functionId', Component: () => null }], '/spotv2/subjects')
    await router.navigate('/v1?to=spot%2FLYON%2Ffonction%2FCAR')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/function/12'))
    expect(new URL(sentRequests(fetchMock, TARGET)[0].url).searchParams.get('to')).toBe('spot/LYON/fonction/CAR')
  })

  it('shows NotFound when no subject matches', async () => {
    server(null, () => errorBody(404, 'Not Found', 'notFound'))
    renderRoutes(routes, '/spotv2/v1?to=spot%2FLYON%2Ffonction%2FCAR%2Fpdvbas%2FNOPE')
    expect(await screen.findByRole('heading', { name: 'The page or information sought was not found' })).toBeInTheDocument()
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })

  it('goes to Forbidden for a hidden subject', async () => {
    server(null, () => errorBody(403, 'Forbidden', 'Insufficient rights to view'))
    const { router } = renderRoutes(routes, '/spotv2/v1?to=spot%2FLYON%2Ffonction%2FCAR%2Fpdvbas%2FX')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
  })

  it('keeps saying the previous version is not configured for another target, without asking the server', async () => {
    const fetchMock = server(null, () => json({ view: 'diagram', subjectId: 5 }))
    renderRoutes(routes, '/spotv2/v1?to=spot%2FLYON%2Fsites')
    expect(await screen.findByRole('heading', { name: 'The previous version of Spot is not configured' })).toBeInTheDocument()
    expect(sentRequests(fetchMock, TARGET)).toHaveLength(0)
  })
})

describe('the legacy exit with the legacy address', () => {
  it('leaves for the legacy mind map without asking Spot', async () => {
    const replace = vi.fn()
    vi.stubGlobal('location', { ...window.location, replace })
    const fetchMock = server('https://legacy.example/spotv1/', () => json({ view: 'mindMap', subjectId: 5 }))
    renderRoutes(routes, '/spotv2/v1?to=spot%2FLYON%2Ffonction%2FCAR%2Fpdvhaut%2FX%2F%2F')
    expect(await screen.findByRole('link', { name: 'Open the page' })).toHaveAttribute('href', 'https://legacy.example/spotv1/spot/LYON/fonction/CAR/pdvhaut/X//')
    expect(replace).toHaveBeenCalledWith('https://legacy.example/spotv1/spot/LYON/fonction/CAR/pdvhaut/X//')
    expect(sentRequests(fetchMock, TARGET)).toHaveLength(0)
  })

  it('still refuse a target outside the legacy base', async () => {
    server('https://legacy.example/spotv1/')
    renderRoutes(routes, '/spotv2/v1?to=https%3A%2F%2Felsewhere.example%2F')
    expect(await screen.findByRole('heading', { name: 'The page or information sought was not found' })).toBeInTheDocument()
    expect(document.title).toBe('Page not found - Spot - ACME')
  })
})
