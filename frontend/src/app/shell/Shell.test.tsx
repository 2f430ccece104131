import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { storeToken } from '../../lib/session'
import { renderRoutes } from '../../test/render'
import { fakeServer, json } from '../../test/server'
import { routes } from '../router'

function signedInAs(permissions: string[]) {
  storeToken('token')
  fakeServer({
    'GET /backend/api/v2/account/whoAmI': () =>
      json({
        id: 7,
        login: 'hfournier',
        firstName: 'Hélène',
        lastName: 'Fournier',
        externalId: null,
        displayName: 'Hélène Fournier',
        groups: [{ id: 2, name: 'Opérateurs' }],
        permissions,
      }),
    'GET /backend/api/v2/organization/info': () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null }),
    'GET /backend/api/v2/permission': () => json(['perm_SetPermissions']),
    'GET /backend/api/v2/permission/list': () => json([{ id: 1, name: 'Administrateurs', permissions: ['perm_SetPermissions'] }]),
    'GET /backend/api/v2/site': () => json([]),
    'GET /backend/api/v2/dashboards/mine': () => json({ currentPaths: [], alerts: [], contributions: [], periodicModules: [] }),
    'GET /backend/api/v2/account/alerts': () => json({ alerts: [], count: 0 }),
    'GET /backend/api/v2/discussion/unread': () => json([]),
  })
}

describe('shell', () => {
  it('leads any signed-in user, even without permission, to My dashboard, with the map and mediation entries in the drawer', async () => {
    signedInAs([])
    const { router } = renderRoutes(routes, '/spotv2/')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/dashboards/mine'))
    expect(await screen.findByRole('heading', { name: 'My dashboard' })).toBeInTheDocument()
    expect(screen.getByText('Hélène Fournier')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Show or hide the navigation' }))
    for (const entry of ['Sites', 'Cartographies', 'Functions', 'Subjects', 'Mediations', 'My dashboard']) {
      expect(await screen.findByRole('link', { name: entry })).toBeInTheDocument()
    }
    expect(screen.queryByRole('link', { name: 'Group permissions' })).not.toBeInTheDocument()
  })

  it('shows in the drawer the entries the user may use, and only those', async () => {
    signedInAs(['perm_UserManagement'])
    renderRoutes(routes, '/spotv2/forbidden')
    await userEvent.click(await screen.findByRole('button', { name: 'Show or hide the navigation' }))
    expect(await screen.findByRole('link', { name: 'Users and groups' })).toHaveAttribute('href', '/spotv2/administration/users')
    expect(screen.queryByRole('link', { name: 'Group permissions' })).not.toBeInTheDocument()
  })

  it('leads the root to My dashboard whatever the permissions', async () => {
    signedInAs(['perm_SetPermissions'])
    const { router } = renderRoutes(routes, '/spotv2/')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/dashboards/mine'))
    await userEvent.click(await screen.findByRole('button', { name: 'Show or hide the navigation' }))
    expect(await screen.findByRole('link', { name: 'Group permissions' })).toHaveAttribute('href', '/spotv2/administration/permissions')
  })

  it('sends a user without the permission to Forbidden', async () => {
    signedInAs(['perm_UserManagement'])
    const { router } = renderRoutes(routes, '/spotv2/administration/permissions')
    expect(await screen.findByText('Insufficient rights to access this information')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/spotv2/forbidden')
  })

  it('shows NotFound for an unknown address', async () => {
    signedInAs([])
    renderRoutes(routes, '/spotv2/no/such/page')
    expect(await screen.findByText('The page or information sought was not found')).toBeInTheDocument()
  })

  it("lists the user's groups and translated permissions from the account menu", async () => {
    signedInAs(['perm_SetPermissions'])
    renderRoutes(routes, '/spotv2/forbidden')
    await userEvent.click(await screen.findByRole('button', { name: 'Account' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Groups and permissions' }))
    const dialog = await screen.findByRole('dialog', { name: 'Groups and permissions' })
    expect(within(dialog).getByText('Opérateurs')).toBeInTheDocument()
    expect(within(dialog).getByText('Manage permissions')).toBeInTheDocument()
  })
})
