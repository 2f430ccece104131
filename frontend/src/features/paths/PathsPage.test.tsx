import { screen, within } from '@testing-library/react'
import { Outlet } from 'react-router'
import { VirtuosoMockContext } from 'react-virtuoso'
import { describe, expect, it } from 'vitest'
import { ForbiddenPage } from '../../components/ForbiddenPage'
import { renderRoutes } from '../../test/render'
import { fakeServer, json } from '../../test/server'
import type { PathCard } from './api'
import { pathRoutes } from './routes'

const API = '/backend/api/v2'

const card = (changes: Partial<PathCard>): PathCard => ({
  id: 4,
  title: 'Sécurité atelier',
  reference: { code: 'P-SEC', label: 'Sécurité', description: '' },
  learner: { id: 7, name: 'Paul Martin' },
  creator: { id: 3, name: 'Claire Lefèvre' },
  openedBySpot: false,
  status: 'started',
  startDate: '2026-12-01',
  stopDate: '2027-02-28',
  createdAt: '2026-11-20T09:00:00Z',
  acceptanceDate: '2026-11-21T09:00:00Z',
  validationDate: null,
  signatureDate: null,
  totalAssignedModules: 3,
  completion: 40, completionColour: 'accent',
  ...changes,
})

function server(permissions: string[]) {
  return fakeServer({
    [`GET ${API}/account/whoAmI`]: () =>
      json({ id: 3, login: 'claire', firstName: 'Claire', lastName: 'Lefèvre', externalId: null, displayName: 'Claire Lefèvre', groups: [], permissions }),
    [`POST ${API}/querylang/trainingPath/parse`]: () => json({ filter: null, sort: [] }),
    [`GET ${API}/querylang/trainingPath/fields`]: () => json({ entityType: 'trainingPath', fields: [], defaultSort: [{ field: 'creation_date', descending: true }] }),
    [`GET ${API}/account/filters`]: () => json({}),
    [`POST ${API}/training/path/query`]: () =>
      json({
        results: [
          card({}),
          card({ id: 5, title: 'Conduite', reference: null, status: 'canceled', completion: -1, completionColour: null, totalAssignedModules: 1 }),
          card({ id: 6, title: 'Levage', status: 'archived', completion: 100, completionColour: 'success' }),
          card({ id: 8, title: 'Accueil', status: 'notAccepted', completion: 10, completionColour: 'error' }),
          card({ id: 9, title: 'Requalification — CACES', creator: null, openedBySpot: true, status: 'notAccepted', totalAssignedModules: 1 }),
        ],
        totalItems: 5,
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
    children: [...pathRoutes, { path: 'forbidden', Component: ForbiddenPage }],
  },
]

const steps = (article: HTMLElement) =>
  within(article)
    .getAllByRole('listitem')
    .map((step) => `${step.dataset.step}:${step.dataset.state}`)

describe('the path list', () => {
  it('shows each path with its reference, learner, dates, completion in its colour and its steps', async () => {
    server(['perm_TrainingManagement'])
    renderRoutes(routes, '/spotv2/training/paths')
    // The page is loaded on first visit (a lazy route): slow on a busy machine.
    const first = await screen.findByRole('article', { name: 'Sécurité atelier' })
    expect(document.title).toBe('Training paths - Spot')
    expect(within(first).getByRole('link', { name: 'Sécurité atelier' })).toHaveAttribute('href', '/spotv2/training/path/view/4')
    expect(first).toHaveTextContent('P-SEC — Sécurité · Learner: Paul Martin · From 2026-12-01 to 2027-02-28 · 3 modules')
    expect(within(first).getByText('Completion: 40 %')).toHaveAttribute('data-completion-color', 'accent')
    expect(steps(first)).toEqual(['accepted:done', 'started:current', 'finished:toCome', 'validated:toCome', 'archived:toCome'])
    expect(within(first).getByRole('listitem', { current: 'step' })).toHaveAccessibleName('Started: current step')

    const canceled = screen.getByRole('article', { name: 'Conduite' })
    expect(canceled).toHaveTextContent('No reference')
    expect(within(canceled).getByText('Completion not quantifiable')).toHaveAttribute('data-completion-color', 'none')
    expect(within(canceled).queryByRole('listitem')).toBeNull()
    expect(within(canceled).getByText('Canceled')).toBeInTheDocument()

    const archived = screen.getByRole('article', { name: 'Levage' })
    expect(steps(archived).at(-1)).toBe('archived:current')
    expect(within(archived).getByText('Completion: 100 %')).toHaveAttribute('data-completion-color', 'success')

    const waiting = screen.getByRole('article', { name: 'Accueil' })
    expect(steps(waiting).every((step) => step.endsWith(':toCome'))).toBe(true)
    expect(within(waiting).getByText('Completion: 10 %')).toHaveAttribute('data-completion-color', 'error')
    expect(waiting).not.toHaveTextContent('Opened by Spot')
    // A requalification Spot opened itself says so.
    expect(screen.getByRole('article', { name: 'Requalification — CACES' })).toHaveTextContent('From 2026-12-01 to 2027-02-28 · 1 module · Opened by Spot')
    expect(screen.getByRole('link', { name: 'New path' })).toHaveAttribute('href', '/spotv2/training/path/add')
  })

  it('is open to any signed-in user, without the creation button for those who may not create paths', async () => {
    server([])
    renderRoutes(routes, '/spotv2/training/paths')
    expect(await screen.findByRole('article', { name: 'Sécurité atelier' })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'New path' })).toBeNull()
  })

  it.each(['/spotv2/training/path/add', '/spotv2/training/path/add/4'])('sends to Forbidden from %s without perm_TrainingManagement', async (address) => {
    server(['perm_TrainingPathAdmin'])
    renderRoutes(routes, address)
    expect(await screen.findByText('Insufficient rights to access this information')).toBeInTheDocument()
  })
})
