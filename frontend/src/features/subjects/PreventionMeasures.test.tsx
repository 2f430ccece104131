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

describe('prevention measures', () => {
  const SAVE = 'POST /backend/api/v2/subject/5/preventionMeasures'
  const editable = (changes: Partial<Subject> = {}) => subject({ can: { ...subject().can, edit: true }, ...changes })

  it('shows them to every reader, with no pencil without the right to edit', async () => {
    fakeServer({ [SUBJECT]: () => json(subject({ preventionMeasures: 'Gants anti-coupure\nCarter fermé' })), [INFO]: info(null) })
    renderRoutes(routes, '/spotv2/subject/5')
    const section = await screen.findByRole('region', { name: 'Prevention measures' })
    expect(within(section).getByText(/Gants anti-coupure/)).toBeVisible()
    expect(within(section).queryByRole('button', { name: 'Edit the prevention measures' })).toBeNull()
  })

  it('saves them with the version read and shows the answer', async () => {
    const fetchMock = fakeServer({
      [SUBJECT]: () => json(editable()),
      [INFO]: info(null),
      [SAVE]: async (request) => json(editable({ preventionMeasures: ((await request.clone().json()) as { preventionMeasures: string }).preventionMeasures, version: 4 })),
    })
    renderRoutes(routes, '/spotv2/subject/5')
    const section = await screen.findByRole('region', { name: 'Prevention measures' })
    expect(within(section).getByText('No prevention measure is written.')).toBeVisible()
    await userEvent.click(within(section).getByRole('button', { name: 'Edit the prevention measures' }))
    const dialog = await screen.findByRole('dialog')
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Prevention measures' }), 'Gants{Enter}Carter')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Prevention measures saved')).toBeVisible()
    expect(await sentRequests(fetchMock, SAVE)[0].json()).toEqual({ preventionMeasures: 'Gants\nCarter', version: 3 })
    expect(within(section).getByText(/Gants/)).toBeVisible()
  })

  it('refuses text that breaks the general rule before sending it', async () => {
    const fetchMock = fakeServer({ [SUBJECT]: () => json(editable()), [INFO]: info(null) })
    renderRoutes(routes, '/spotv2/subject/5')
    await userEvent.click(await screen.findByRole('button', { name: 'Edit the prevention measures' }))
    const dialog = await screen.findByRole('dialog')
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Prevention measures' }), 'Gants ')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('At least one error remains to be corrected')).toBeVisible()
    expect(sentRequests(fetchMock, SAVE)).toHaveLength(0)
  })

  it('keeps what was typed when someone saved the subject meanwhile, and saves after reading it again', async () => {
    let version = 3
    const fetchMock = fakeServer({
      [SUBJECT]: () => json(editable({ version })),
      [INFO]: info(null),
      [SAVE]: async (request) => {
        const body = (await request.clone().json()) as { version: number; preventionMeasures: string }
        return body.version === version ? json(editable({ preventionMeasures: body.preventionMeasures, version: version + 1 })) : errorBody(409, 'Conflict', 'staleVersion')
      },
    })
    renderRoutes(routes, '/spotv2/subject/5')
    await userEvent.click(await screen.findByRole('button', { name: 'Edit the prevention measures' }))
    const dialog = await screen.findByRole('dialog')
    const field = within(dialog).getByRole('textbox', { name: 'Prevention measures' })
    await userEvent.type(field, 'Gants')
    version = 4
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText(/The subject was changed meanwhile/)).toBeVisible()
    expect(field).toHaveValue('Gants')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Read again' }))
    await waitFor(() => expect(sentRequests(fetchMock, SUBJECT).length).toBeGreaterThan(1))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Prevention measures saved')).toBeVisible()
    expect(await sentRequests(fetchMock, SAVE)[1].json()).toEqual({ preventionMeasures: 'Gants', version: 4 })
  })
})
