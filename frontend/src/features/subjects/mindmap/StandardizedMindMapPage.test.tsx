import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import axe from 'axe-core'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes } from '../../../test/render'
import { errorBody, fakeServer, json } from '../../../test/server'
import { StandardizedMindMapPage } from './StandardizedMindMapPage'
import type { MindMap, MindMapNode, StandardizedMindMap, StandardizedNode } from './types'

const LIVE = 'GET /backend/api/v2/subject/5/mindmap'
const COPY = 'GET /backend/api/v2/subject/5/mindmap/standardized'
const INFO = 'GET /backend/api/v2/organization/info'

const node = (code: number, parentCode: number | null, position: number, name: string, changes: Partial<StandardizedNode> = {}): StandardizedNode => ({
  code,
  parentCode,
  position,
  name,
  text: '',
  status: 'inProgress',
  ...changes,
})
const liveNode = (standardized: StandardizedNode): MindMapNode => ({
  id: 100 + standardized.code,
  ...standardized,
  createdBy: null,
  createdAt: null,
  updatedBy: null,
  updatedAt: null,
  can: { edit: false, rename: false, delete: false },
})

const live: MindMap = {
  subjectId: 5,
  subjectName: 'Réglage du tour',
  subjectCode: 'USI-005',
  version: 7,
  lastMindmapUpdate: '2026-03-12T10:00:00Z',
  standardized: true,
  diagram: null,
  nodes: [
    node(0, null, 0, 'Réglage du tour'),
    node(1, 0, 0, 'Préparer la machine'),
    node(2, 0, 1, 'Contrôler la pièce', { text: 'Au pied à coulisse', status: 'validated' }),
    node(3, 1, 0, 'Nettoyer le poste'),
    node(5, 0, 2, 'Nouvelle étape'),
  ].map(liveNode),
  can: { edit: true, validate: false, editDiagram: false },
}

const copy: StandardizedMindMap = {
  standardizedAt: '2026-03-10T09:15:00Z',
  standardizedBy: { id: 3, name: 'Alice Martin' },
  comment: 'Validé en revue qualité',
  nodes: [
    node(0, null, 0, 'Réglage du tour'),
    node(1, 0, 0, 'Préparation'),
    node(2, 0, 1, 'Contrôler la pièce'),
    node(3, 0, 2, 'Nettoyer le poste'),
    node(4, 0, 3, 'Étape retirée'),
  ],
  differences: [
    { code: 1, kinds: ['renamed'] },
    { code: 2, kinds: ['textChanged', 'statusChanged'] },
    { code: 3, kinds: ['moved'] },
    { code: 4, kinds: ['removed'] },
    { code: 5, kinds: ['added'] },
  ],
}

const routes = [
  { path: 'subject/:subjectId/mindmap/standardized', Component: StandardizedMindMapPage },
  { path: 'subject/:subjectId', Component: () => null },
  { path: 'forbidden', Component: () => null },
]

function server(answer: () => Response = () => json(copy)) {
  fakeServer({
    [LIVE]: () => json(live),
    [COPY]: answer,
    [INFO]: () => json({ customerName: '', applicationName: 'Spot', legacyBaseUrl: null }),
  })
}

describe('the standardized mind map', () => {
  // The canvas (@xyflow/react) watches its size, which jsdom does not measure.
  beforeEach(() => {
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    )
  })

  it('says who standardized it, when, and the comment', async () => {
    server()
    renderRoutes(routes, '/spotv2/subject/5/mindmap/standardized')
    expect(await screen.findByRole('heading', { name: 'Standardized mind map of Réglage du tour' })).toBeInTheDocument()
    const about = screen.getByRole('region', { name: 'Standardization' })
    expect(within(about).getByText(/^Standardized by Alice Martin on /)).toBeInTheDocument()
    expect(within(about).getByText('Validé en revue qualité')).toBeInTheDocument()
    expect(document.title).toBe('Standardized mind map - Spot')
  })

  it('lists every kind of difference in words, with the former name of a renamed node', async () => {
    server()
    renderRoutes(routes, '/spotv2/subject/5/mindmap/standardized')
    const list = await screen.findByRole('region', { name: '5 differences with the current mind map' })
    const item = (name: string) => within(list).getByRole('link', { name }).closest('li') as HTMLElement
    expect(within(item('Préparer la machine')).getByText('Renamed')).toBeInTheDocument()
    expect(within(item('Préparer la machine')).getByText('formerly “Préparation”')).toBeInTheDocument()
    expect(within(item('Contrôler la pièce')).getByText('Text changed')).toBeInTheDocument()
    expect(within(item('Contrôler la pièce')).getByText('Status changed')).toBeInTheDocument()
    expect(within(item('Nettoyer le poste')).getByText('Moved')).toBeInTheDocument()
    // A removed node exists only in the copy, an added one only in the live tree.
    expect(within(item('Étape retirée')).getByText('Removed')).toBeInTheDocument()
    expect(within(item('Nouvelle étape')).getByText('Added')).toBeInTheDocument()
  })

  it('shows both trees with their differences marked on each side', async () => {
    server()
    renderRoutes(routes, '/spotv2/subject/5/mindmap/standardized')
    const copyTree = await screen.findByRole('tree', { name: 'Standardized copy' })
    const liveTree = screen.getByRole('tree', { name: 'Current mind map' })
    expect(within(copyTree).getByText('Étape retirée')).toBeInTheDocument()
    expect(within(copyTree).queryByText('Nouvelle étape')).not.toBeInTheDocument()
    expect(within(liveTree).getByText('Nouvelle étape')).toBeInTheDocument()
    expect(within(liveTree).queryByText('Étape retirée')).not.toBeInTheDocument()
    expect(within(copyTree).getByText('Préparation')).toBeInTheDocument()
    expect(within(liveTree).getByText('Préparer la machine')).toBeInTheDocument()
  })

  it('selects the node of a difference in the live tree', async () => {
    server()
    const { router } = renderRoutes(routes, '/spotv2/subject/5/mindmap/standardized')
    const list = await screen.findByRole('region', { name: '5 differences with the current mind map' })
    await userEvent.click(within(list).getByRole('link', { name: 'Nettoyer le poste' }))
    await waitFor(() => expect(router.state.location.search).toBe('?node=3'))
    const liveTree = screen.getByRole('tree', { name: 'Current mind map' })
    // The outline marks its selected item with aria-selected.
    await waitFor(() => expect(within(liveTree).getByRole('treeitem', { name: /^Nettoyer le poste/ })).toHaveAttribute('aria-selected', 'true'))
    expect(within(liveTree).getByRole('treeitem', { name: /^Nouvelle étape/ })).toHaveAttribute('aria-selected', 'false')
    // On a phone the live tree's tab is shown.
    expect(screen.getByRole('tab', { name: 'Current mind map' })).toHaveAttribute('aria-selected', 'true')
    expect(within(list).getByRole('link', { name: 'Nettoyer le poste' })).toHaveAttribute('aria-current', 'true')
  })

  it('says when the subject was never standardized, with a way back to it', async () => {
    server(() => errorBody(404, 'Not Found', 'notStandardized'))
    const { router } = renderRoutes(routes, '/spotv2/subject/5/mindmap/standardized')
    expect(await screen.findByRole('heading', { name: 'This subject has no standardized mind map' })).toBeInTheDocument()
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('link', { name: 'Back to the subject' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/subject/5'))
  })

  it('shows NotFound for an unknown subject and Forbidden for a hidden one', async () => {
    server(() => errorBody(404, 'Not Found', 'subjectNotFound'))
    const first = renderRoutes(routes, '/spotv2/subject/5/mindmap/standardized')
    expect(await screen.findByRole('heading', { name: 'The page or information sought was not found' })).toBeInTheDocument()
    first.router.dispose()
    first.unmount()

    server(() => errorBody(403, 'Forbidden', 'Insufficient rights to view'))
    const { router } = renderRoutes(routes, '/spotv2/subject/5/mindmap/standardized')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
  })

  it('has no serious or critical axe violation', async () => {
    server()
    const { container } = renderRoutes(routes, '/spotv2/subject/5/mindmap/standardized?node=1')
    await screen.findByRole('tree', { name: 'Current mind map' })
    const { violations } = await axe.run(container)
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([])
  })
})
