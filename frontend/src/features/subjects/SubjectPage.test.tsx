import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ForbiddenPage } from '../../components/ForbiddenPage'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import type { Subject } from './api'
import { SubjectPage } from './SubjectPage'

const SUBJECT = 'GET /backend/api/v2/subject/5'
const INFO = 'GET /backend/api/v2/organization/info'
const event = (userName: string) => ({ userId: 3, userName, date: '2026-03-10T09:15:00Z' })

function subject(changes: Partial<Subject> = {}): Subject {
  return {
    id: 5,
    code: 'USI-005',
    name: 'Réglage du tour',
    type: 'quality',
    cartographyId: 2,
    functionId: 12,
    activityId: 5,
    lifetimeEvents: { creation: event('Alice Martin'), lastUpdate: event('Émilie Laurent'), followed: null, resolved: null, criticity: null, standardized: null },
    ratings: { frequency: 4, gravity: 3, detectability: 0 },
    criticity: 48,
    criticityLevel: 'medium',
    mainNodeStatus: 'inProgress',
    hasDiagram: true,
    lastMindmapUpdate: null,
    contexts: [
      [
        { id: 1, code: 'LYON', name: 'Usine de Lyon', type: 'site' },
        { id: 2, code: 'USI', name: "Atelier d'usinage", type: 'cartography' },
        { id: 12, code: 'OPR', name: 'Opérateur régleur', type: 'function' },
      ],
    ],
    ancestors: [],
    standardizedComment: '',
    preventionMeasures: '',
    mindMapItems: [],
    pictureUrl: null,
    contributors: [],
    discussionId: 40,
    version: 3,
    can: { edit: false, delete: false, duplicate: false, standardize: false, follow: true, resolve: true, rate: true, editMindMap: false, validateMindMap: false, editDiagram: false },
    ...changes,
  }
}

const info = (legacyBaseUrl: string | null) => () => json({ customerName: '', applicationName: 'Spot', legacyBaseUrl })
const routes = [
  { path: 'subject/:subjectId', Component: SubjectPage },
  { path: 'subjects', Component: () => null },
  { path: 'forbidden', Component: ForbiddenPage },
]

describe('subject view', () => {
  it('shows the marks with their texts and a pencil only for what the server allows', async () => {
    fakeServer({ [SUBJECT]: () => json(subject()), [INFO]: info(null) })
    renderRoutes(routes, '/spotv2/subject/5')
    expect(await screen.findByRole('heading', { name: 'Réglage du tour' })).toBeInTheDocument()
    expect(screen.getByText('Frequency: Frequent (every week)')).toBeInTheDocument()
    expect(screen.getByText('Gravity: Significant (stoppage or scrap)')).toBeInTheDocument()
    expect(screen.getByText('Medium')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Rate the criticity' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Mark as followed' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Mark as resolved' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Standardize' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
  })

  it("offers Spot's own mind map and diagram without a legacy address, and the standardized mind map once standardized", async () => {
    fakeServer({ [SUBJECT]: () => json(subject()), [INFO]: info(null) })
    renderRoutes(routes, '/spotv2/subject/5')
    expect(await screen.findByRole('link', { name: 'Mind map' })).toHaveAttribute('href', '/spotv2/subject/5/mindmap')
    expect(screen.getByRole('link', { name: 'Diagram' })).toHaveAttribute('href', '/spotv2/subject/5/diagram')
    expect(screen.queryByRole('link', { name: 'Standardized mind map' })).not.toBeInTheDocument()
  })

  it('leaves the diagram out without one and links the standardized mind map of a standardized subject', async () => {
    const standardized = subject({ hasDiagram: false, lifetimeEvents: { ...subject().lifetimeEvents, standardized: event('Alice Martin') } })
    fakeServer({ [SUBJECT]: () => json(standardized), [INFO]: info(null) })
    renderRoutes(routes, '/spotv2/subject/5')
    expect(await screen.findByRole('link', { name: 'Standardized mind map' })).toHaveAttribute('href', '/spotv2/subject/5/mindmap/standardized')
    expect(screen.getByRole('link', { name: 'Mind map' })).toHaveAttribute('href', '/spotv2/subject/5/mindmap')
    expect(screen.queryByRole('link', { name: 'Diagram' })).not.toBeInTheDocument()
  })

  it('offers the legacy mind map and diagram through V1Redirection when a legacy address is set', async () => {
    fakeServer({ [SUBJECT]: () => json(subject()), [INFO]: info('https://old.example.com/') })
    renderRoutes(routes, '/spotv2/subject/5')
    expect(await screen.findByRole('link', { name: 'Mind map' })).toHaveAttribute(
      'href',
      `/spotv2/v1?to=${encodeURIComponent('spot/LYON/fonction/OPR/pdvhaut/USI-005//')}`,
    )
    expect(screen.getByRole('link', { name: 'Diagram' })).toHaveAttribute(
      'href',
      `/spotv2/v1?to=${encodeURIComponent('spot/LYON/fonction/OPR/pdvbas/USI-005')}`,
    )
    expect(screen.queryByRole('link', { name: 'Standardized mind map' })).not.toBeInTheDocument()
  })

  it('rates after confirmation, sending detectability 0, and shows the answer', async () => {
    const rated = subject({ ratings: { frequency: 5, gravity: 5, detectability: 0 }, criticity: 100, criticityLevel: 'high' })
    // The server's bands, here with 5 × 5 alone high, so that the dialog shows the server's level.
    const levels = Array.from({ length: 6 }, (_, frequency) =>
      Array.from({ length: 6 }, (_, gravity) => (frequency === 5 && gravity === 5 ? 'high' : frequency && gravity ? 'low' : null)),
    )
    const fetchMock = fakeServer({
      [SUBJECT]: () => json(subject()),
      [INFO]: info(null),
      'GET /backend/api/v2/subject/criticity': () => json({ levels }),
      'POST /backend/api/v2/subject/5/rate': () => json(rated),
    })
    renderRoutes(routes, '/spotv2/subject/5')
    await userEvent.click(await screen.findByRole('button', { name: 'Rate the criticity' }))
    const dialog = await screen.findByRole('dialog', { name: 'Rate the criticity' })
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Frequency' }))
    await userEvent.click(await screen.findByRole('option', { name: '5 — Very frequent (every day)' }))
    expect(await within(dialog).findByText('Low')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Gravity' }))
    await userEvent.click(await screen.findByRole('option', { name: '5 — Critical (serious accident or major loss)' }))
    expect(within(dialog).getByText('High')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('Criticity saved')).toBeInTheDocument()
    expect(await sentRequests(fetchMock, 'POST /backend/api/v2/subject/5/rate')[0].json()).toEqual({ frequency: 5, gravity: 5, detectability: 0 })
    expect(screen.getByText('Frequency: Very frequent (every day)')).toBeInTheDocument()
  })

  it('deletes after confirmation and returns to the list', async () => {
    const allowed = subject({ can: { ...subject().can, edit: true, delete: true, duplicate: true } })
    const fetchMock = fakeServer({
      [SUBJECT]: () => json(allowed),
      [INFO]: info(null),
      'DELETE /backend/api/v2/subject/5': () => new Response(null, { status: 204 }),
    })
    const { router } = renderRoutes(routes, '/spotv2/subject/5')
    expect(await screen.findByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/spotv2/subject/edit/5')
    expect(screen.getByRole('link', { name: 'Create from' })).toHaveAttribute('href', '/spotv2/subject/createFrom/5')
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }))
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/subjects'))
    expect(sentRequests(fetchMock, 'DELETE /backend/api/v2/subject/5')).toHaveLength(1)
  })

  it('goes to Forbidden for a hidden subject and shows NotFound for an unknown one', async () => {
    fakeServer({ [SUBJECT]: () => errorBody(403, 'Forbidden', 'Insufficient rights to view'), [INFO]: info(null) })
    const { router } = renderRoutes(routes, '/spotv2/subject/5')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
    router.dispose()

    fakeServer({ [INFO]: info(null) })
    renderRoutes(routes, '/spotv2/subject/77')
    expect(await screen.findByText('The page or information sought was not found')).toBeInTheDocument()
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })
})
