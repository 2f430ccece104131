import { screen, within } from '@testing-library/react'
import { Outlet } from 'react-router'
import { VirtuosoMockContext } from 'react-virtuoso'
import { describe, expect, it } from 'vitest'
import { ForbiddenPage } from '../../components/ForbiddenPage'
import { renderRoutes } from '../../test/render'
import { fakeServer, json } from '../../test/server'
import type { ModuleCard } from './api'
import { moduleRoutes } from './routes'

const API = '/backend/api/v2'

const card = (changes: Partial<ModuleCard>): ModuleCard => ({
  id: 4,
  name: 'Lockout basics',
  moduleType: 'training',
  reference: { code: 'M-LOTO', label: 'Lockout', description: '' },
  goals: 'Isolate',
  estimatedDuration: 150,
  periodicity: 12,
  passThreshold: 10,
  enabled: true,
  creation: { userId: 1, userName: 'Alice Martin', date: '2026-03-10T09:00:00Z' },
  itemCount: 3,
  ...changes,
})

function server(permissions: string[]) {
  return fakeServer({
    [`GET ${API}/account/whoAmI`]: () =>
      json({ id: 3, login: 'claire', firstName: 'Claire', lastName: 'Lefèvre', externalId: null, displayName: 'Claire Lefèvre', groups: [], permissions }),
    [`POST ${API}/querylang/trainingModule/parse`]: () => json({ filter: null, sort: [] }),
    [`GET ${API}/querylang/trainingModule/fields`]: () => json({ entityType: 'trainingModule', fields: [], defaultSort: [{ field: 'name', descending: false }] }),
    [`GET ${API}/account/filters`]: () => json({}),
    [`POST ${API}/training/module/query`]: () =>
      json({
        results: [card({}), card({ id: 5, name: 'Forklift', moduleType: 'other', reference: null, estimatedDuration: 0, periodicity: 0, enabled: false, itemCount: 1 })],
        totalItems: 2,
      }),
  })
}

// The list's virtual scroller measures nothing in jsdom: it is told the sizes.
const routes = [
  {
    element: (
      <VirtuosoMockContext.Provider value={{ viewportHeight: 2000, itemHeight: 80 }}>
        <Outlet />
      </VirtuosoMockContext.Provider>
    ),
    children: [...moduleRoutes, { path: 'forbidden', Component: ForbiddenPage }],
  },
]

describe('the module list', () => {
  it('shows each module with its type, reference, duration, periodicity, elements and disabled marker', async () => {
    server(['perm_TrainingManagement'])
    renderRoutes(routes, '/spotv2/training/modules')
    // The page is loaded on first visit (a lazy route): slow on a busy machine.
    const first = await screen.findByRole('article', { name: 'Lockout basics' })
    expect(within(first).getByRole('link', { name: 'Lockout basics' })).toHaveAttribute('href', '/spotv2/training/module/view/4')
    expect(first).toHaveTextContent('Training · M-LOTO — Lockout · Duration: 2 H 30 Mn · Every 12 months · 3 elements')
    expect(within(first).queryByText('Disabled')).toBeNull()
    const second = screen.getByRole('article', { name: 'Forklift' })
    expect(second).toHaveTextContent('Other · No reference · Duration: Not defined · Not periodic · 1 element')
    expect(within(second).getByText('Disabled')).toBeInTheDocument()
  })

  it.each(['/spotv2/training/modules', '/spotv2/training/module/view/4', '/spotv2/training/module/add', '/spotv2/training/module/edit/4', '/spotv2/training/module/createFrom/4'])(
    'sends to Forbidden from %s without perm_TrainingManagement',
    async (address) => {
      server(['perm_TrainingPathAdmin'])
      renderRoutes(routes, address)
      expect(await screen.findByText('Insufficient rights to access this information')).toBeInTheDocument()
    },
  )
})
