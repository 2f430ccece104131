import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ForbiddenPage } from '../../components/ForbiddenPage'
import { RequirePermission } from '../../components/RequirePermission'
import { renderRoutes } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'
import type { AllowedItems, TreeNode } from './api'
import { CartographyVisibilityPage } from './CartographyVisibilityPage'

const API = '/backend/api/v2/permission'
const SAVE_3 = `POST ${API}/allowedItemsForGroup/3`
const PAGE = '/spotv2/administration/cartographies/permissions'

const node = (id: number, type: TreeNode['type'], name: string, children: TreeNode[] = []): TreeNode => ({ id, type, code: `C${id}`, name, children })
const tree = [
  node(1, 'site', 'Usine de Lyon', [
    node(11, 'cartography', "Atelier d'usinage", [
      node(111, 'activity', 'Usinage', [node(112, 'activity', 'Tournage')]),
      node(113, 'function', 'Cariste'),
      node(114, 'function', 'Régleur'),
    ]),
    node(12, 'cartography', "Ligne d'assemblage", [node(121, 'activity', 'Montage')]),
  ]),
  node(2, 'site', 'Usine de Nantes', [node(21, 'cartography', 'Entrepôt')]),
]
const groups = [
  { id: 3, name: 'Opérateurs', permissions: [] },
  { id: 4, name: 'Référents', permissions: [] },
]
// Opérateurs see the machining shop only; they also hold a subject row this screen does not edit.
const operators: AllowedItems = {
  restricted: true,
  items: [
    { itemType: 'cartography', itemId: 11 },
    { itemType: 'subject', itemId: 40 },
  ],
}
const unrestricted: AllowedItems = { restricted: false, items: [] }

function server(saved: Record<number, AllowedItems> = { 3: operators, 4: unrestricted }) {
  const current = { ...saved }
  return fakeServer({
    'GET /backend/api/v2/account/whoAmI': () =>
      json({ id: 1, login: 'admin', firstName: 'Alice', lastName: 'Martin', externalId: null, displayName: 'Alice Martin', groups: [], permissions: ['perm_SetPermissions'] }),
    [`GET ${API}/list`]: () => json(groups),
    [`GET ${API}/cartographiesTree`]: () => json(tree),
    [`GET ${API}/allowedItemsForGroup/3`]: () => json(current[3]),
    [`GET ${API}/allowedItemsForGroup/4`]: () => json(current[4]),
    [SAVE_3]: async (request) => {
      current[3] = (await request.clone().json()) as AllowedItems
      return json(current[3])
    },
  })
}

const routes = [
  {
    element: <RequirePermission />,
    children: [{ path: 'administration/cartographies/permissions', Component: CartographyVisibilityPage }],
  },
  { path: 'sites', Component: () => <main data-testid="elsewhere" /> },
  { path: 'forbidden', Component: ForbiddenPage },
]

const cartography = (name: string) => screen.getByRole('checkbox', { name })
const restriction = () => screen.getByRole('switch', { name: 'Restricted to the checked cartographies and items' })
const saveButton = () => screen.getByRole('button', { name: 'Save' })

async function openGroup3() {
  const rendered = renderRoutes(routes, `${PAGE}?groupId=3`)
  // The first render loads MUI and the page: slow on a busy machine.
  await waitFor(() => expect(cartography("Atelier d'usinage")).toBeChecked())
  return rendered
}

async function chooseGroup(name: string) {
  await userEvent.click(screen.getByRole('combobox', { name: 'Group' }))
  await userEvent.click(await screen.findByRole('option', { name }))
}

// A loaded machine renders the first page slowly: more than the default 5 s per test.
describe('cartography visibility page', () => {
  it('shows the chosen group restricted to its cartographies, items under them for context', async () => {
    server()
    await openGroup3()
    expect(screen.getByRole('heading', { name: 'Cartographies visibility' })).toBeInTheDocument()
    expect(restriction()).toBeChecked()
    expect(cartography("Ligne d'assemblage")).not.toBeChecked()
    expect(cartography('Entrepôt')).not.toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'All the cartographies of Usine de Lyon' })).toHaveAttribute('data-indeterminate', 'true')
    expect(screen.getByText('This group sees only the checked cartographies (1 of 3).')).toBeInTheDocument()
    expect(screen.getByText('The group also has 1 item of another type, kept as it is.')).toBeInTheDocument()
    expect(saveButton()).toBeDisabled()

    expect(screen.queryByText('Tournage')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: "Show the activities and functions of Atelier d'usinage" }))
    expect(screen.getByText('Tournage')).toBeInTheDocument()
    expect(screen.getByText('Cariste')).toBeInTheDocument()
  })

  it('saves the checked cartographies and keeps the items of other types', async () => {
    const fetchMock = server()
    await openGroup3()
    await userEvent.click(cartography('Entrepôt'))
    await userEvent.click(saveButton())
    expect(await screen.findByText('The visibility of the group Opérateurs is saved.')).toBeInTheDocument()
    const sent = sentRequests(fetchMock, SAVE_3)
    expect(sent).toHaveLength(1)
    expect(await sent[0].json()).toEqual({
      restricted: true,
      items: [
        { itemType: 'cartography', itemId: 11 },
        { itemType: 'cartography', itemId: 21 },
        { itemType: 'subject', itemId: 40 },
      ],
    })
    expect(saveButton()).toBeDisabled()
  })

  it('checks or unchecks a whole site at once', async () => {
    const fetchMock = server()
    await openGroup3()
    await userEvent.click(screen.getByRole('checkbox', { name: 'All the cartographies of Usine de Lyon' }))
    expect(cartography("Ligne d'assemblage")).toBeChecked()
    await userEvent.click(saveButton())
    await waitFor(() => expect(sentRequests(fetchMock, SAVE_3)).toHaveLength(1))
    const body = (await sentRequests(fetchMock, SAVE_3)[0].json()) as AllowedItems
    expect(body.items.filter((item) => item.itemType === 'cartography').map((item) => item.itemId)).toEqual([11, 12])
  })

  it('lifts the restriction: an unrestricted group has no item and sees every cartography', async () => {
    const fetchMock = server()
    await openGroup3()
    await userEvent.click(restriction())
    expect(screen.getByText('This group sees every cartography, including those added later.')).toBeInTheDocument()
    for (const name of ["Atelier d'usinage", "Ligne d'assemblage", 'Entrepôt']) {
      expect(cartography(name)).toBeChecked()
      expect(cartography(name)).toBeDisabled()
    }
    await userEvent.click(saveButton())
    await waitFor(() => expect(sentRequests(fetchMock, SAVE_3)).toHaveLength(1))
    expect(await sentRequests(fetchMock, SAVE_3)[0].json()).toEqual({ restricted: false, items: [] })
  })

  it('turning limitation on starts from everything the group sees, ticked, and says so', async () => {
    const fetchMock = server()
    await openGroup3()
    await chooseGroup('Référents')
    await waitFor(() => expect(restriction()).not.toBeChecked())
    await userEvent.click(restriction())
    expect(screen.getByText('Everything the group sees now is checked, so nothing disappears yet: uncheck what it should no longer see, then save.')).toBeInTheDocument()
    for (const name of ["Atelier d'usinage", "Ligne d'assemblage", 'Entrepôt']) {
      expect(cartography(name)).toBeChecked()
      expect(cartography(name)).toBeEnabled()
    }
    expect(screen.getByText('This group sees only the checked cartographies (3 of 3).')).toBeInTheDocument()
    await userEvent.click(cartography('Entrepôt'))
    await userEvent.click(saveButton())
    await waitFor(() => expect(sentRequests(fetchMock, 'POST /backend/api/v2/permission/allowedItemsForGroup/4')).toHaveLength(1))
    expect(await sentRequests(fetchMock, 'POST /backend/api/v2/permission/allowedItemsForGroup/4')[0].json()).toEqual({
      restricted: true,
      items: [
        { itemType: 'cartography', itemId: 11 },
        { itemType: 'cartography', itemId: 12 },
      ],
    })
  })

  it('limits a whole cartography to its other functions when one is unticked', async () => {
    const fetchMock = server()
    await openGroup3()
    await userEvent.click(screen.getByRole('button', { name: "Show the activities and functions of Atelier d'usinage" }))
    expect(screen.getByRole('checkbox', { name: 'Function Cariste' })).toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Activity Tournage' })).toBeChecked()
    await userEvent.click(screen.getByRole('checkbox', { name: 'Function Cariste' }))
    expect(cartography("Atelier d'usinage")).toHaveAttribute('data-indeterminate', 'true')
    expect(screen.getByRole('checkbox', { name: 'Function Cariste' })).not.toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Function Régleur' })).toBeChecked()
    // Activities: nothing ticked, so none of them is left out.
    expect(screen.getByText('(none checked: all of them)')).toBeInTheDocument()
    await userEvent.click(saveButton())
    await waitFor(() => expect(sentRequests(fetchMock, SAVE_3)).toHaveLength(1))
    expect(await sentRequests(fetchMock, SAVE_3)[0].json()).toEqual({
      restricted: true,
      items: [
        { itemType: 'function', itemId: 114 },
        { itemType: 'subject', itemId: 40 },
      ],
    })
  })

  it('limits a cartography to a ticked activity and the activities below it', async () => {
    const fetchMock = server({ 3: { restricted: true, items: [{ itemType: 'cartography', itemId: 21 }] }, 4: unrestricted })
    renderRoutes(routes, `${PAGE}?groupId=3`)
    await waitFor(() => expect(cartography('Entrepôt')).toBeChecked())
    await userEvent.click(screen.getByRole('button', { name: "Show the activities and functions of Atelier d'usinage" }))
    expect(screen.getByRole('checkbox', { name: 'Activity Tournage' })).not.toBeChecked()
    await userEvent.click(screen.getByRole('checkbox', { name: 'Activity Usinage' }))
    expect(screen.getByRole('checkbox', { name: 'Activity Tournage' })).toBeChecked()
    expect(cartography("Atelier d'usinage")).toHaveAttribute('data-indeterminate', 'true')
    expect(screen.getByText('This group sees only the checked cartographies (2 of 3).')).toBeInTheDocument()
    await userEvent.click(saveButton())
    await waitFor(() => expect(sentRequests(fetchMock, SAVE_3)).toHaveLength(1))
    expect(await sentRequests(fetchMock, SAVE_3)[0].json()).toEqual({
      restricted: true,
      items: [
        { itemType: 'cartography', itemId: 21 },
        { itemType: 'activity', itemId: 111 },
      ],
    })
  })

  it('refuses to save a restriction to nothing', async () => {
    server({ 3: { restricted: true, items: [{ itemType: 'cartography', itemId: 11 }] }, 4: unrestricted })
    await openGroup3()
    await userEvent.click(cartography("Atelier d'usinage"))
    expect(screen.getByText('Check at least one cartography, or lift the restriction.')).toBeInTheDocument()
    expect(saveButton()).toBeDisabled()
  })

  it('switches group at once when nothing changed', async () => {
    server()
    await openGroup3()
    await chooseGroup('Référents')
    await waitFor(() => expect(restriction()).not.toBeChecked())
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('asks before switching group with unsaved changes, and keeps them when the user stays', async () => {
    const fetchMock = server()
    await openGroup3()
    await userEvent.click(cartography('Entrepôt'))
    await chooseGroup('Référents')
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' })
    expect(within(dialog).getByText('Some unsaved changes will be lost')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(screen.getByRole('combobox', { name: 'Group' })).toHaveTextContent('Opérateurs')
    expect(cartography('Entrepôt')).toBeChecked()
    expect(saveButton()).toBeEnabled()
    expect(sentRequests(fetchMock, SAVE_3)).toHaveLength(0)
  })

  it('drops the changes when the user goes on to the other group, and back', async () => {
    const fetchMock = server()
    const { router } = await openGroup3()
    await userEvent.click(cartography('Entrepôt'))
    await chooseGroup('Référents')
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(router.state.location.search).toBe('?groupId=4'))
    await waitFor(() => expect(restriction()).not.toBeChecked())
    await chooseGroup('Opérateurs')
    await waitFor(() => expect(restriction()).toBeChecked())
    expect(cartography('Entrepôt')).not.toBeChecked()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(sentRequests(fetchMock, SAVE_3)).toHaveLength(0)
  })

  it('undoes the changes on request', async () => {
    server()
    await openGroup3()
    await userEvent.click(restriction())
    await userEvent.click(screen.getByRole('button', { name: 'Undo the changes' }))
    expect(restriction()).toBeChecked()
    expect(saveButton()).toBeDisabled()
  })

  it('asks before leaving the page with unsaved changes', async () => {
    server()
    const { router } = await openGroup3()
    await userEvent.click(cartography('Entrepôt'))
    await act(() => router.navigate('/sites'))
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(router.state.location.pathname).toBe('/spotv2/administration/cartographies/permissions')
    expect(cartography('Entrepôt')).toBeChecked()

    await act(() => router.navigate('/sites'))
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Continue' }))
    expect(await screen.findByTestId('elsewhere')).toBeInTheDocument()
  })

  it('leaves without asking once the changes are saved', async () => {
    server()
    const { router } = await openGroup3()
    await userEvent.click(cartography('Entrepôt'))
    await userEvent.click(saveButton())
    await waitFor(() => expect(saveButton()).toBeDisabled())
    await act(() => router.navigate('/sites'))
    expect(await screen.findByTestId('elsewhere')).toBeInTheDocument()
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).not.toBeInTheDocument()
  })

  it('shows no group for an id in the address that names none', async () => {
    const fetchMock = server()
    renderRoutes(routes, `${PAGE}?groupId=99`)
    expect(await screen.findByText('Choose a group to see and change the cartographies its members may see.')).toBeInTheDocument()
    expect(screen.queryByRole('switch')).not.toBeInTheDocument()
    expect(fetchMock.mock.calls.filter(([request]) => request.url.includes('allowedItemsForGroup'))).toHaveLength(0)
  })

  it('sends a user without perm_SetPermissions to Forbidden', async () => {
    fakeServer({
      'GET /backend/api/v2/account/whoAmI': () =>
        json({ id: 2, login: 'apprenant', firstName: 'Gabriel', lastName: 'Roux', externalId: null, displayName: 'Gabriel Roux', groups: [], permissions: ['perm_EditPdv'] }),
    })
    const { router } = renderRoutes(routes, PAGE)
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
  })
})
