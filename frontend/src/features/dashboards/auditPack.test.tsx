import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { routes } from '../../app/router'
import { storeToken } from '../../lib/session'
import { renderRoutes } from '../../test/render'
import { fakeServer, json } from '../../test/server'
import { sessionCan } from '../../test/session'

const API = '/backend/api/v2'
const ME = 7

/** Signed in as someone whom whoAmI's `can` lets download audit packs and see anyone's status, or not. */
function signedInAs(dashboards: boolean) {
  storeToken('token')
  return fakeServer({
    [`GET ${API}/account/whoAmI`]: () =>
      json({ id: ME, login: 'groux', firstName: 'Gabriel', lastName: 'Roux', externalId: null, displayName: 'Gabriel Roux', groups: [], permissions: [], can: sessionCan({ downloadAuditPacks: dashboards, seeQualificationDashboards: dashboards }) }),
    [`GET ${API}/organization/info`]: () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null }),
    [`GET ${API}/account/alerts`]: () => json({ alerts: [], count: 0 }),
    [`GET ${API}/discussion/unread`]: () => json([]),
    [`GET ${API}/dashboards/qualifications/user/${ME}`]: () => json({ user: { id: ME, name: 'Gabriel Roux' }, elements: [], history: [] }),
    [`GET ${API}/dashboards/qualifications/user/12`]: () => json({ user: { id: 12, name: 'Inès Garnier' }, elements: [], history: [] }),
  })
}

afterEach(() => vi.unstubAllGlobals())

describe("the user qualification dashboard's audit pack", () => {
  it("is offered to whom the server lets download it, for another user's status and their own", async () => {
    signedInAs(true)
    const { unmount } = renderRoutes(routes, '/spotv2/dashboard/qualifications/user/12')
    expect(await screen.findByRole('heading', { name: 'Qualification status of Inès Garnier', level: 1 })).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Audit pack' })).toBeInTheDocument()
    unmount()
    signedInAs(true)
    renderRoutes(routes, '/spotv2/dashboard/qualifications/user')
    expect(await screen.findByRole('heading', { name: 'My qualification status', level: 1 })).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Audit pack' })).toBeInTheDocument()
  })

  it("is not offered on one's own status to others", async () => {
    signedInAs(false)
    renderRoutes(routes, '/spotv2/dashboard/qualifications/user')
    expect(await screen.findByRole('heading', { name: 'My qualification status', level: 1 })).toBeInTheDocument()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByRole('button', { name: 'Audit pack' })).not.toBeInTheDocument()
  })
})
