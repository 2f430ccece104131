import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { VirtuosoMockContext } from 'react-virtuoso'
import { describe, expect, it } from 'vitest'
import { renderRoutes } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'
import { UsersTab } from './UsersTab'

const QUERY = 'POST /backend/api/v2/user/query'
const PERSON = { email: null, active: true, deactivatedAt: null, language: 'fr' }
const alice = { ...PERSON, id: 1, login: 'admin', firstName: 'Alice', lastName: 'Martin', externalId: null, displayName: 'Alice Martin', groups: [{ id: 1, name: 'Administrateurs' }] }
const gabriel = { ...PERSON, id: 7, login: 'apprenant', firstName: 'Gabriel', lastName: 'Roux', externalId: 'E-7', displayName: 'Gabriel Roux (E-7)', groups: [{ id: 7, name: 'Opérateurs' }] }
const louis = {
  ...PERSON,
  id: 9,
  login: 'parti',
  firstName: 'Louis',
  lastName: 'Parti',
  externalId: null,
  email: 'louis.parti@usine.example',
  active: false,
  deactivatedAt: '2026-11-02T08:00:00Z',
  displayName: 'Louis Parti',
  groups: [],
}

const USER_FIELDS = [
  { name: 'last_name', type: 'string', operators: ['contains', 'equals'], values: [], filterable: true, sortable: true },
  { name: 'group', type: 'id', operators: ['oneOf', 'noneOf'], values: [], filterable: true, sortable: false },
]

function renderUsers(entry = '/administration/users') {
  const fetchMock = fakeServer({
    [QUERY]: async (request) => {
      const { filter } = (await request.clone().json()) as { filter: string }
      const results = filter === '' ? [alice, gabriel, louis] : [gabriel]
      return json({ results, totalItems: results.length })
    },
    'GET /backend/api/v2/account/whoAmI': () => json({ ...alice, permissions: ['perm_UserManagement'] }),
    'GET /backend/api/v2/querylang/user/fields': () => json({ entityType: 'user', fields: USER_FIELDS, defaultSort: [{ field: 'last_name', descending: false }] }),
    'POST /backend/api/v2/querylang/user/parse': async (request) => {
      const { filter } = (await request.json()) as { filter: string }
      const tree = filter === '' ? null : { kind: 'criterion', field: 'group', operator: 'oneOf', type: 'id', value: null, values: [7] }
      return json({ filter: tree, sort: [] })
    },
    'GET /backend/api/v2/user/searchGroup': () => json([{ id: 7, name: 'Opérateurs' }]),
    'POST /backend/api/v2/user/getGroupNames': () => json([{ id: 7, name: 'Opérateurs' }]),
    'GET /backend/api/v2/user/groups': () => json([]),
    'GET /backend/api/v2/account/filters': () => json({}),
    'POST /backend/api/v2/user/byId/9/reactivate': () => json({ ...louis, active: true, deactivatedAt: null, permissions: [] }),
    'POST /backend/api/v2/user/byId/7/deactivate': () => json({ ...gabriel, active: false, permissions: [] }),
  })
  const element = (
    <VirtuosoMockContext.Provider value={{ viewportHeight: 2000, itemHeight: 60 }}>
      <UsersTab />
    </VirtuosoMockContext.Provider>
  )
  const rendered = renderRoutes([{ path: 'administration/users/:filter?', element }], `/spotv2${entry}`)
  return { ...rendered, fetchMock }
}

describe('users tab', () => {
  it('lists the users through POST /user/query, 50 at a time, with their count', async () => {
    const { fetchMock } = renderUsers()
    expect(await screen.findByRole('article', { name: 'Alice Martin' })).toBeInTheDocument()
    expect(screen.getByText('3 users')).toBeInTheDocument()
    expect(await sentRequests(fetchMock, QUERY)[0].json()).toEqual({ filter: '', sort: '', page: 1, pageSize: 50 })
    expect(within(screen.getByRole('article', { name: 'Alice Martin' })).getByRole('button', { name: 'Delete Alice Martin' })).toBeDisabled()
  })

  it('filters by group, found by name, and names the group in the filter summary', async () => {
    const { router } = renderUsers()
    await userEvent.click(await screen.findByRole('button', { name: 'Filter' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Add a criterion' }))
    const row = screen.getByRole('group', { name: 'Criterion 1' })
    await userEvent.click(within(row).getByRole('combobox', { name: 'Field' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Group' }))
    await userEvent.type(within(row).getByRole('combobox', { name: 'Value' }), 'Op')
    await userEvent.click(await screen.findByRole('option', { name: 'Opérateurs' }))
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/administration/users/group%20oneOf%207'))
    expect(await screen.findByText('1 user')).toBeInTheDocument()
    expect(screen.queryByRole('article', { name: 'Alice Martin' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }))
    expect(await screen.findByText('Group is one of Opérateurs')).toBeInTheDocument()
  })

  it('marks an inactive person, offers to reactivate them, and deactivates an active one after asking', async () => {
    const { fetchMock } = renderUsers()
    const louisCard = await screen.findByRole('article', { name: 'Louis Parti' })
    expect(within(louisCard).getByText('Inactive')).toBeInTheDocument()
    expect(within(louisCard).getByText(/louis\.parti@usine\.example/)).toBeInTheDocument()
    await userEvent.click(within(louisCard).getByRole('button', { name: 'Reactivate Louis Parti' }))
    expect(await screen.findByText('Person reactivated')).toBeInTheDocument()
    expect(sentRequests(fetchMock, 'POST /backend/api/v2/user/byId/9/reactivate')).toHaveLength(1)
    // One cannot deactivate oneself; anyone else, after confirming.
    expect(within(screen.getByRole('article', { name: 'Alice Martin' })).getByRole('button', { name: 'Deactivate Alice Martin' })).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: 'Deactivate Gabriel Roux (E-7)' }))
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate this person?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }))
    expect(await screen.findByText('Person deactivated')).toBeInTheDocument()
    expect(sentRequests(fetchMock, 'POST /backend/api/v2/user/byId/7/deactivate')).toHaveLength(1)
  })

  it('keeps the edit action of each user', async () => {
    renderUsers()
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Gabriel Roux (E-7)' }))
    expect(await screen.findByRole('dialog', { name: 'Edit Gabriel Roux (E-7)' })).toBeInTheDocument()
  })
})
