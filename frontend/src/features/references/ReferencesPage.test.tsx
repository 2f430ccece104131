import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { VirtuosoMockContext } from 'react-virtuoso'
import { describe, expect, it } from 'vitest'
import type { QueryField } from '../../lib/querylang/types'
import { renderRoutes } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'
import type { ReferenceCard } from './api'
import { ModuleReferencesPage, PathReferencesPage } from './ReferencesPage'
import { referenceRoutes } from './routes'

const TEXT = ['contains', 'startsWith', 'endsWith', 'equals', 'different']
/** The registry of backend/src/spot/references/query.py, as GET /querylang/module_reference/fields answers it. */
const FIELDS: QueryField[] = [
  { name: 'code', type: 'string', operators: TEXT, values: [], filterable: true, sortable: true },
  { name: 'label', type: 'string', operators: TEXT, values: [], filterable: true, sortable: true },
  { name: 'description', type: 'string', operators: TEXT, values: [], filterable: true, sortable: false },
  { name: 'disabled', type: 'boolean', operators: ['equals'], values: [], filterable: true, sortable: true },
]

const MODULE_REFERENCES: ReferenceCard[] = [
  { code: 'CONS-02', label: 'Consignation', description: 'Mise en sécurité\ndes machines', disabled: false },
  { code: 'HAB-EL', label: 'Habilitation électrique', description: '', disabled: true },
]

function server(type: 'module' | 'path', results: ReferenceCard[], permissions = ['perm_TrainingReferenceAdmin']) {
  return fakeServer({
    'GET /backend/api/v2/account/whoAmI': () =>
      json({ id: 1, login: 'admin', firstName: 'A', lastName: 'B', externalId: null, displayName: 'A B', groups: [], permissions }),
    [`POST /backend/api/v2/training/references/query/${type}`]: () => json({ results, totalItems: results.length }),
    [`GET /backend/api/v2/querylang/${type}_reference/fields`]: () =>
      json({ entityType: `${type}_reference`, fields: FIELDS, defaultSort: [{ field: 'code', descending: false }] }),
    [`POST /backend/api/v2/querylang/${type}_reference/parse`]: () => json({ filter: null, sort: [] }),
    'GET /backend/api/v2/account/filters': () => json({}),
    'GET /backend/api/v2/training/references/module/CONS-02': () =>
      json({ ...MODULE_REFERENCES[0], version: 1, usage: 0, can: { edit: true, delete: true } }),
  })
}

const inList = (element: ReactNode) => <VirtuosoMockContext.Provider value={{ viewportHeight: 2000, itemHeight: 80 }}>{element}</VirtuosoMockContext.Provider>

describe('the reference lists', () => {
  it('lists the module references with code, label, description and a disabled marker', async () => {
    const fetchMock = server('module', MODULE_REFERENCES)
    renderRoutes([{ path: 'administration/trainingModuleReferences/:filter?', element: inList(<ModuleReferencesPage />) }], '/spotv2/administration/trainingModuleReferences')
    const first = await screen.findByRole('article', { name: 'CONS-02' })
    expect(screen.getByRole('heading', { name: 'Module references' })).toBeInTheDocument()
    expect(document.title).toBe('Module references - Spot')
    expect(screen.getByText('2 references')).toBeInTheDocument()
    expect(within(first).getByText('Consignation')).toBeInTheDocument()
    expect(within(first).getByText(/Mise en sécurité/)).toBeInTheDocument()
    expect(within(first).queryByText('Disabled')).not.toBeInTheDocument()
    expect(within(screen.getByRole('article', { name: 'HAB-EL' })).getByText('Disabled')).toBeInTheDocument()
    expect(await sentRequests(fetchMock, 'POST /backend/api/v2/training/references/query/module')[0].json()).toEqual({ filter: '', sort: '', page: 1, pageSize: 50 })
  })

  it('opens a card in the edit dialog and New reference in the create dialog', async () => {
    server('module', MODULE_REFERENCES)
    renderRoutes([{ path: 'administration/trainingModuleReferences/:filter?', element: inList(<ModuleReferencesPage />) }], '/spotv2/administration/trainingModuleReferences')
    await userEvent.click(within(await screen.findByRole('article', { name: 'CONS-02' })).getByRole('button'))
    const dialog = await screen.findByRole('dialog', { name: 'Module reference' })
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /^Code/ })).toHaveValue('CONS-02'))
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await userEvent.click(screen.getByRole('button', { name: 'New reference' }))
    expect(within(await screen.findByRole('dialog', { name: 'New module reference' })).getByRole('textbox', { name: /^Code/ })).toHaveValue('')
  })

  it('lists the path references under their own title', async () => {
    server('path', [{ code: 'PARC-OPE', label: 'Parcours opérateur', description: '', disabled: false }])
    renderRoutes([{ path: 'administration/trainingPathReferences/:filter?', element: inList(<PathReferencesPage />) }], '/spotv2/administration/trainingPathReferences')
    expect(await screen.findByRole('article', { name: 'PARC-OPE' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Path references' })).toBeInTheDocument()
  })

  it.each(['trainingModuleReferences', 'trainingPathReferences'])('sends users without perm_TrainingReferenceAdmin from %s to Forbidden', async (list) => {
    server('module', [], ['perm_TrainingManagement'])
    const { router } = renderRoutes([...referenceRoutes, { path: 'forbidden', element: null }], `/spotv2/administration/${list}`)
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
  })
})
