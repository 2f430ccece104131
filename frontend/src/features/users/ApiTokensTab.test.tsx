import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { formatDateTime } from '../../lib/dates'
import { renderRoutes, renderWithClient } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { ApiTokensTab } from './ApiTokensTab'
import { UsersPage } from './UsersPage'

const LIST = 'GET /backend/api/v2/apiToken/list'
const CREATE = 'POST /backend/api/v2/apiToken/create'
const REVOKE = 'POST /backend/api/v2/apiToken/byId/3/revoke'
const VALUE = 'spot_8QmZr2xTq0-vWc4hLd9Ke7nJb1YfUo5s'

const CREATED_AT = '2026-03-02T09:15:00Z'
const USED_AT = '2026-03-10T17:40:00Z'
const REVOKED_AT = '2026-02-20T08:00:00Z'
const idp = { id: 3, name: 'Entra ID', scope: 'scim', createdAt: CREATED_AT, createdBy: 'Alice Martin', lastUsedAt: USED_AT, revokedAt: null }
const fresh = { id: 4, name: 'Okta', scope: 'scim', createdAt: CREATED_AT, createdBy: null, lastUsedAt: null, revokedAt: null }
const old = { id: 1, name: 'Ancien annuaire', scope: 'scim', createdAt: '2025-01-05T10:00:00Z', createdBy: null, lastUsedAt: USED_AT, revokedAt: REVOKED_AT }

const rowOf = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name}`) })

describe('the API tokens tab', () => {
  it('lists the live tokens, then the revoked ones, with who created them and when they were last used', async () => {
    fakeServer({ [LIST]: () => json([idp, fresh, old]) })
    renderWithClient(<ApiTokensTab />)
    const table = await screen.findByRole('table', { name: 'API tokens' })
    const [, first, second, third] = within(table).getAllByRole('row')
    expect(first).toHaveTextContent(`Entra IDSCIM${formatDateTime(CREATED_AT, 'en')}by Alice Martin${formatDateTime(USED_AT, 'en')}Live`)
    expect(second).toHaveTextContent('OktaSCIM')
    expect(second).toHaveTextContent('on the command line')
    expect(second).toHaveTextContent('NeverLive')
    expect(third).toHaveTextContent(`Revoked on ${formatDateTime(REVOKED_AT, 'en')}`)
    // Only a live token can be revoked.
    expect(within(first).getByRole('button', { name: 'Revoke Entra ID' })).toBeEnabled()
    expect(within(third).queryByRole('button')).not.toBeInTheDocument()
  })

  it('opens from the users page as its fourth tab, kept in the address', async () => {
    fakeServer({ [LIST]: () => json([idp]) })
    renderRoutes([{ path: 'administration/users', element: <UsersPage /> }], '/spotv2/administration/users?tab=tokens')
    expect(await screen.findByRole('tab', { name: 'API tokens', selected: true })).toBeInTheDocument()
    expect(await screen.findByRole('row', { name: /^Entra ID/ })).toBeInTheDocument()
  })

  it('creates a token and shows its value once, until Done', async () => {
    const user = userEvent.setup()
    const fetchMock = fakeServer({
      [LIST]: () => json(sentRequests(fetchMock, CREATE).length === 0 ? [idp] : [fresh, idp]),
      [CREATE]: () => json({ token: VALUE, record: fresh }, 201),
    })
    renderWithClient(<ApiTokensTab />)
    await user.click(await screen.findByRole('button', { name: 'New token' }))
    const form = await screen.findByRole('dialog', { name: 'New API token' })
    // The name is required; SCIM is the only scope, chosen already.
    await user.click(within(form).getByRole('button', { name: 'Create' }))
    expect(await within(form).findByText("This field can't stay empty")).toBeInTheDocument()
    expect(within(form).getByRole('combobox', { name: /^Scope/ })).toHaveTextContent('SCIM')
    await user.type(within(form).getByLabelText(/^Name/), 'Okta')
    await user.click(within(form).getByRole('button', { name: 'Create' }))

    const shown = await screen.findByRole('dialog', { name: 'Token Okta created' })
    expect(await sentRequests(fetchMock, CREATE)[0].json()).toEqual({ name: 'Okta', scope: 'scim' })
    expect(within(shown).getByText(/it will not be shown again/)).toBeInTheDocument()
    const value = within(shown).getByLabelText('Token')
    expect(value).toHaveValue(VALUE)
    expect(value).toHaveAttribute('readonly')
    await user.click(within(shown).getByRole('button', { name: 'Copy' }))
    expect(await within(shown).findByRole('button', { name: 'Copied' })).toBeInTheDocument()
    expect(await navigator.clipboard.readText()).toBe(VALUE)

    await user.click(within(shown).getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(screen.queryByDisplayValue(VALUE)).not.toBeInTheDocument()
    expect(screen.queryByText(VALUE)).not.toBeInTheDocument()
    expect(await screen.findByText('Token created')).toBeInTheDocument()
    expect(await screen.findByRole('row', { name: /^Okta/ })).toBeInTheDocument()
  })

  it('says so when the token cannot be copied, leaving it selected to copy by hand', async () => {
    const user = userEvent.setup()
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('Denied', 'NotAllowedError'))
    fakeServer({ [LIST]: () => json([]), [CREATE]: () => json({ token: VALUE, record: fresh }, 201) })
    renderWithClient(<ApiTokensTab />)
    expect(await screen.findByText('There is no API token')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'New token' }))
    await user.type(await screen.findByLabelText(/^Name/), 'Okta')
    await user.click(screen.getByRole('button', { name: 'Create' }))
    const shown = await screen.findByRole('dialog', { name: 'Token Okta created' })
    await user.click(within(shown).getByRole('button', { name: 'Copy' }))
    expect(await within(shown).findByText(/could not be copied/)).toBeInTheDocument()
    expect(within(shown).getByRole('button', { name: 'Copy' })).toBeInTheDocument()
  })

  it('revokes a token after asking', async () => {
    const fetchMock = fakeServer({
      [LIST]: () => json(sentRequests(fetchMock, REVOKE).length === 0 ? [idp] : [{ ...idp, revokedAt: REVOKED_AT }]),
      [REVOKE]: () => json({ ...idp, revokedAt: REVOKED_AT }),
    })
    renderWithClient(<ApiTokensTab />)
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke Entra ID' }))
    let dialog = await screen.findByRole('dialog', { name: 'Revoke this token?' })
    expect(dialog).toHaveTextContent('The token Entra ID will be refused from now on')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(sentRequests(fetchMock, REVOKE)).toHaveLength(0)

    await userEvent.click(screen.getByRole('button', { name: 'Revoke Entra ID' }))
    dialog = await screen.findByRole('dialog', { name: 'Revoke this token?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }))
    expect(await screen.findByText('Token revoked')).toBeInTheDocument()
    expect(sentRequests(fetchMock, REVOKE)).toHaveLength(1)
    await waitFor(() => expect(rowOf('Entra ID')).toHaveTextContent(`Revoked on ${formatDateTime(REVOKED_AT, 'en')}`))
    expect(within(rowOf('Entra ID')).queryByRole('button')).not.toBeInTheDocument()
  })

  it('says when the token was revoked meanwhile, and reads the list again', async () => {
    const fetchMock = fakeServer({
      [LIST]: () => json(sentRequests(fetchMock, REVOKE).length === 0 ? [idp] : [{ ...idp, revokedAt: REVOKED_AT }]),
      [REVOKE]: () => errorBody(409, 'Conflict', 'apiTokenRevoked'),
    })
    renderWithClient(<ApiTokensTab />)
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke Entra ID' }))
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this token?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('This API token is already revoked')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await waitFor(() => expect(rowOf('Entra ID')).toHaveTextContent('Revoked on'))
    // The tab said it; the error dialog stays closed.
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })
})
