import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes } from '../../test/render'
import { fakeServer, json } from '../../test/server'
import type { Path, PathCan } from './api'
import PathViewPage from './PathViewPage'
import { sessionCan } from '../../test/session'

const NOTHING: PathCan = {
  edit: false,
  createFrom: false,
  delete: false,
  accept: false,
  start: false,
  validate: false,
  sign: false,
  cancel: false,
  seeGrading: false,
  fields: { title: false, reference: false, startDate: false, stopDate: false, passThreshold: false, assignedModules: false, referents: false, visibleByPersons: false, visibleByGroups: false },
}

function path(changes: Partial<Path> = {}): Path {
  return {
    id: 9,
    title: 'Lathe operator',
    reference: null,
    inactivePeople: [],
    learner: { id: 3, name: 'Chloé Roux' },
    startDate: '2026-03-01',
    stopDate: '2026-06-30',
    status: 'started',
    passThreshold: 7,
    visibleByPersons: [],
    visibleByGroups: [],
    openedBySpot: false,
    creation: { userId: 1, userName: 'Alice Martin', date: '2026-02-20T10:00:00Z' },
    totalEstimatedDuration: 0,
    totalSubModuleItems: 0,
    doneSubModuleItems: 0,
    totalAssignedModules: 0,
    completion: -1, completionColour: null,
    averageGrade: null,
    acceptanceDate: '2026-02-21T09:00:00Z',
    validation: null,
    signature: null,
    signatures: [],
    closingWarnings: [],
    assignedModules: [],
    history: [],
    can: NOTHING,
    version: 4,
    ...changes,
  }
}

/** The path's view, for someone whom whoAmI's `can` lets download audit packs, or not. */
function open(downloadAuditPacks: boolean, shown: Path = path()) {
  const fetchMock = fakeServer({
    'GET /backend/api/v2/training/path/9': () => json(shown),
    'GET /backend/api/v2/account/whoAmI': () => json({ id: 5, login: 'manager', displayName: 'Bernard Dubois', permissions: [], can: sessionCan({ downloadAuditPacks }) }),
  })
  renderRoutes([{ path: 'training/path/view/:pathId', Component: PathViewPage }], '/spotv2/training/path/view/9')
  return fetchMock
}

const actions = async () => within(await screen.findByRole('group', { name: 'Actions' }))

afterEach(() => vi.unstubAllGlobals())

describe("the path view's audit pack", () => {
  it("offers the learner's audit pack to whom the server lets download it", async () => {
    open(true)
    expect(await (await actions()).findByRole('button', { name: "Learner's audit pack" })).toBeInTheDocument()
  })

  it('hides it from others', async () => {
    open(false)
    const group = await actions()
    expect(await group.findByRole('button', { name: 'Reload' })).toBeInTheDocument()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(group.queryByRole('button', { name: "Learner's audit pack" })).not.toBeInTheDocument()
  })

  it('has none for a learner whose account is gone', async () => {
    open(true, path({ learner: null }))
    const group = await actions()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(group.queryByRole('button', { name: "Learner's audit pack" })).not.toBeInTheDocument()
  })
})
