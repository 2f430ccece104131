import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ForbiddenPage } from '../../components/ForbiddenPage'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import type { AssignedModule, ModuleCan, Path, PathCan, Result } from './api'
import PathViewPage from './PathViewPage'

const API = '/backend/api/v2/training/path/9'
const PATH = `GET ${API}`
const REAUTHENTICATE = 'POST /backend/api/v2/account/reauthenticate'
const WHO_AM_I = 'GET /backend/api/v2/account/whoAmI'

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

const NO_MODULE_ACTION: ModuleCan = { start: false, disable: false, grade: false, sign: false, manageMediations: false, openElements: false }

const base = { description: '', doneAt: null }
const URL_RESULT: Result = { ...base, index: 0, type: 'url', title: 'Safety sheet', url: 'https://example.com/safety' }
const SPOT_HIDDEN: Result = {
  ...base,
  index: 1,
  type: 'spot',
  title: 'Hidden subject',
  spotItemType: 'subject',
  spotItemId: 44,
  readable: false,
  context: [],
  subjects: [],
}
const LMS_GONE: Result = {
  ...base,
  index: 2,
  type: 'lms',
  title: 'Old quiz',
  lmsItemId: 7,
  lmsType: 'quiz',
  courseId: 3,
  found: false,
  launchMode: 'Normal',
  resources: [],
  quizes: [],
}

function assigned(changes: Partial<AssignedModule> = {}): AssignedModule {
  return {
    index: 0,
    module: {
      id: 31,
      name: 'Lathe safety',
      reference: null,
      goals: 'Work safely',
      moduleType: 'training',
      estimatedDuration: 90,
      passThreshold: 6,
      periodicity: 12,
    },
    referents: [{ id: 2, name: 'Bruno Petit' }],
    startDate: '2026-03-01',
    stopDate: '2026-06-30',
    status: 'started',
    disabled: false,
    startedAt: '2026-03-02T08:00:00Z',
    totalItems: 3,
    doneItems: 1,
    completion: 33, completionColour: 'accent',
    results: [URL_RESULT, SPOT_HIDDEN, LMS_GONE],
    grading: null,
    gradings: [],
    signature: null,
    signatures: [],
    can: NO_MODULE_ACTION,
    ...changes,
  }
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
    totalEstimatedDuration: 150,
    totalSubModuleItems: 3,
    doneSubModuleItems: 1,
    totalAssignedModules: 1,
    completion: 33, completionColour: 'accent',
    averageGrade: null,
    acceptanceDate: '2026-02-21T09:00:00Z',
    validation: null,
    signature: null,
    signatures: [],
    closingWarnings: [],
    assignedModules: [assigned()],
    history: [],
    can: NOTHING,
    version: 4,
    ...changes,
  }
}

const routes = [
  { path: 'training/path/view/:pathId', Component: PathViewPage },
  { path: 'training/paths', Component: () => null },
  { path: 'forbidden', Component: ForbiddenPage },
]

function serve(current: () => Path, handlers: Parameters<typeof fakeServer>[0] = {}) {
  return fakeServer({
    [PATH]: () => json(current()),
    [WHO_AM_I]: () => json({ id: 3, login: 'chloe', displayName: 'Chloé Roux', permissions: [] }),
    ...handlers,
  })
}

const open = () => renderRoutes(routes, '/spotv2/training/path/view/9')
const actions = () => within(screen.getByRole('group', { name: 'Actions' }))
const expand = async (name = 'Lathe safety') => userEvent.click(await screen.findByRole('button', { name: new RegExp(name) }))

afterEach(() => vi.unstubAllGlobals())

describe('training path view', () => {
  it('shows the path, its totals, and only the buttons its can allows', async () => {
    serve(() => path({ can: { ...NOTHING, edit: true, createFrom: true, start: true, cancel: true } }))
    open()
    expect(await screen.findByRole('heading', { level: 1, name: 'Lathe operator' })).toBeInTheDocument()
    const details = within(screen.getByRole('region', { name: 'Details' }))
    expect(details.getByText('Chloé Roux')).toBeInTheDocument()
    expect(details.getByText('2 H 30 Mn')).toBeInTheDocument()
    expect(details.getByText('1 of 3')).toBeInTheDocument()
    expect(details.getByText('33 %')).toHaveAttribute('data-completion', 'accent')
    expect(actions().getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/spotv2/training/path/edit/9')
    expect(actions().getByRole('link', { name: 'Create from' })).toHaveAttribute('href', '/spotv2/training/path/add/9')
    for (const name of ['Reload', 'Start the path', 'Cancel the path']) expect(actions().getByRole('button', { name })).toBeInTheDocument()
    for (const name of ['Accept', 'Close the path', 'Sign the path', 'Delete']) expect(actions().queryByRole('button', { name })).not.toBeInTheDocument()
  })

  it('names Spot as the creator of a requalification it opened, in the details and the history', async () => {
    const at = '2026-02-20T10:00:00Z'
    serve(() =>
      path({
        openedBySpot: true,
        creation: { userId: null, userName: 'Spot', date: at },
        history: [{ at, user: null, userName: 'Spot', event: 'created', moduleIndex: null, grade: null, comment: null }],
      }),
    )
    open()
    const details = within(await screen.findByRole('region', { name: 'Details' }))
    expect(details.getByText(/^By Spot on /)).toBeInTheDocument()
    expect(within(screen.getByRole('list', { name: 'History' })).getByText(/Created by Spot/)).toBeInTheDocument()
  })

  it('marks the people who left as inactive, still named', async () => {
    serve(() => path({ inactivePeople: [3] }))
    open()
    const details = within(await screen.findByRole('region', { name: 'Details' }))
    expect(details.getByText('Chloé Roux', { exact: false })).toHaveTextContent('Chloé RouxInactive')
    expect(details.getAllByText('Inactive')).toHaveLength(1)
  })

  it('hides the grades from a reader who may not see grading, and shows them otherwise', async () => {
    const graded = assigned({
      status: 'validated',
      grading: { grade: 8.5, comment: 'Good work', isSuccess: true, referent: { id: 2, name: 'Bruno Petit' }, validUntil: '2027-03-10', date: '2026-03-10T10:00:00Z' },
      gradings: [
        { grade: 4, comment: 'Try again', isSuccess: false, referent: { id: 2, name: 'Bruno Petit' }, validUntil: '2027-03-01', date: '2026-03-01T10:00:00Z' },
        { grade: 8.5, comment: 'Good work', isSuccess: true, referent: { id: 2, name: 'Bruno Petit' }, validUntil: '2027-03-10', date: '2026-03-10T10:00:00Z' },
      ],
    })
    serve(() => path({ averageGrade: 8.5, assignedModules: [graded], can: { ...NOTHING, seeGrading: true } }))
    const { unmount } = open()
    const details = within(await screen.findByRole('region', { name: 'Details' }))
    expect(details.getByText('Average grade')).toBeInTheDocument()
    expect(details.getByText('7 / 10')).toBeInTheDocument()
    await expand()
    const grading = within(screen.getByRole('region', { name: 'Grading — Lathe safety' }))
    expect(grading.getByText('Passed')).toBeInTheDocument()
    expect(grading.getByText('Good work')).toBeInTheDocument()
    expect(grading.getByText('Valid until 2027-03-10')).toBeInTheDocument()
    expect(grading.getByText(/4 \/ 10 on 2026-03-01/)).toBeInTheDocument()
    unmount()

    serve(() => path({ averageGrade: null, assignedModules: [{ ...graded, grading: null, gradings: [] }], can: NOTHING }))
    open()
    const hidden = within(await screen.findByRole('region', { name: 'Details' }))
    expect(hidden.queryByText('Average grade')).not.toBeInTheDocument()
    expect(hidden.queryByText('Pass threshold')).not.toBeInTheDocument()
    await expand()
    expect(screen.queryByRole('region', { name: 'Grading — Lathe safety' })).not.toBeInTheDocument()
  })

  it('gives a failed grading no validity, neither a day nor permanent', async () => {
    const failed = assigned({
      status: 'validated',
      grading: { grade: 4, comment: 'Try again', isSuccess: false, referent: { id: 2, name: 'Bruno Petit' }, validUntil: null, date: '2026-03-10T10:00:00Z' },
      gradings: [{ grade: 4, comment: 'Try again', isSuccess: false, referent: { id: 2, name: 'Bruno Petit' }, validUntil: null, date: '2026-03-10T10:00:00Z' }],
    })
    serve(() => path({ assignedModules: [failed], can: { ...NOTHING, seeGrading: true } }))
    open()
    await expand()
    const grading = within(screen.getByRole('region', { name: 'Grading — Lathe safety' }))
    expect(grading.getByText('Not passed')).toBeInTheDocument()
    expect(grading.queryByText(/Valid until/)).not.toBeInTheDocument()
    expect(grading.queryByText('Permanent')).not.toBeInTheDocument()
  })

  it('shows insufficientRightsToView for an unreadable spot element and lmsElementNotFound for a lost course item', async () => {
    serve(() => path())
    open()
    await expand()
    const elements = within(screen.getByRole('list', { name: 'Elements of Lathe safety' }))
    expect(elements.getByText('Insufficient rights to view')).toBeInTheDocument()
    expect(elements.getByText('LMS element not found (deleted ?)')).toBeInTheDocument()
    // Not the learner: the url element is no link.
    expect(elements.getByText('Safety sheet')).toBeInTheDocument()
    expect(elements.queryByRole('link')).not.toBeInTheDocument()
  })

  it('opens a url element in a new tab for the learner and records the opening', async () => {
    let current = path({ assignedModules: [assigned({ can: { ...NO_MODULE_ACTION, openElements: true } })] })
    const OPENED = `POST ${API}/0/0/url`
    const fetchMock = serve(() => current, {
      [OPENED]: () => {
        current = path({
          assignedModules: [assigned({ results: [{ ...URL_RESULT, doneAt: '2026-03-05T10:00:00Z' }, SPOT_HIDDEN, LMS_GONE], can: { ...NO_MODULE_ACTION, openElements: true } })],
        })
        return json(current)
      },
    })
    open()
    await expand()
    const link = await screen.findByRole('link', { name: /Safety sheet/ })
    expect(link).toHaveAttribute('href', 'https://example.com/safety')
    expect(link).toHaveAttribute('target', '_blank')
    // A click with the default prevented: jsdom has no new tab to open.
    link.addEventListener('click', (event) => event.preventDefault())
    fireEvent.click(link)
    await waitFor(() => expect(sentRequests(fetchMock, OPENED)).toHaveLength(1))
    expect(await screen.findByText(/Done on 2026-03-05/)).toBeInTheDocument()
  })

  it('launches a learning-platform element in the mode it asks for, saying nothing is recorded', async () => {
    const BROWSE: Result = { ...LMS_GONE, title: 'Lockout quiz', found: true, launchMode: 'Browse' }
    const LAUNCH = `POST /backend/api/v2/lms/items/7/launch`
    const fetchMock = serve(() => path({ assignedModules: [assigned({ results: [BROWSE], can: { ...NO_MODULE_ACTION, openElements: true } })] }), {
      [LAUNCH]: () => json({ url: 'http://spot.test/backend/api/v2/lms/play/k3y/quiz.html', standard: 'cmi5', courseId: 3 }),
    })
    const tab = { opener: 'the page' as unknown, location: { href: '' }, close: vi.fn() }
    vi.stubGlobal('open', vi.fn(() => tab))
    open()
    await expand()
    const elements = within(screen.getByRole('list', { name: 'Elements of Lathe safety' }))
    expect(elements.getByText('Opens to look through: nothing is recorded; the element is done once opened.')).toBeInTheDocument()
    await userEvent.click(elements.getByRole('button', { name: 'Launch Lockout quiz' }))
    await waitFor(() => expect(tab.location.href).toBe('http://spot.test/backend/api/v2/lms/play/k3y/quiz.html'))
    const [sent] = sentRequests(fetchMock, LAUNCH)
    expect(await sent.json()).toEqual({ mode: 'Browse' })
  })

  it('closes a finished path showing its warnings, with a comment, signing after the password is asked again', async () => {
    const VALIDATE = `POST ${API}/validate`
    let closed = false
    const fetchMock = serve(
      () =>
        closed
          ? path({ status: 'validated', validation: { validator: { id: 1, name: 'Alice Martin' }, comment: 'Well done', date: '2026-06-30T10:00:00Z' } })
          : path({
              status: 'finished',
              closingWarnings: ['atLeastOneModuleNotPassed', 'atLeastOneModuleNotSignedByLearner', 'atLeastOneModuleNotSigned'],
              can: { ...NOTHING, validate: true, cancel: true },
            }),
      {
        [VALIDATE]: () => {
          if (sentRequests(fetchMock, REAUTHENTICATE).length === 0) return errorBody(401, 'Unauthorized', 'reauthenticationRequired')
          closed = true
          return json(path({ status: 'validated', validation: { validator: { id: 1, name: 'Alice Martin' }, comment: 'Well done', date: '2026-06-30T10:00:00Z' } }))
        },
        [REAUTHENTICATE]: () => new Response(null, { status: 204 }),
      },
    )
    open()
    await userEvent.click(await screen.findByRole('button', { name: 'Close the path' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Close the path' }))
    expect(dialog.getByText('At least one module is not passed')).toBeInTheDocument()
    expect(dialog.getByText('At least one module is not yet signed by learner')).toBeInTheDocument()
    expect(dialog.getByText('At least one module is not yet signed')).toBeInTheDocument()
    await userEvent.type(dialog.getByLabelText('Comment'), 'Well done')
    await userEvent.click(dialog.getByRole('button', { name: 'Close and sign' }))
    const password = await screen.findByRole('dialog', { name: 'Confirm your identity to sign' })
    await userEvent.type(within(password).getByLabelText(/Password/), 'secret-password')
    await userEvent.click(within(password).getByRole('button', { name: 'Confirm and sign' }))
    expect(await screen.findByText('Path closed: your signature is recorded')).toBeInTheDocument()
    expect(await screen.findByText('Closed by Alice Martin on 2026-06-30 ' + new Date('2026-06-30T10:00:00Z').toTimeString().slice(0, 5))).toBeInTheDocument()
    const sent = sentRequests(fetchMock, VALIDATE)
    expect(sent).toHaveLength(2)
    expect(await sent[1].json()).toEqual({ comment: 'Well done' })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })

  it('refuses a grade left not defined or without a comment, then sends it with the version read', async () => {
    const GRADE = `POST ${API}/0/grade`
    const fetchMock = serve(() => path({ assignedModules: [assigned({ status: 'finished', can: { ...NO_MODULE_ACTION, grade: true } })], can: { ...NOTHING, seeGrading: true } }), {
      [GRADE]: () => json(path({ assignedModules: [assigned({ status: 'validated' })] })),
    })
    open()
    await expand()
    await userEvent.click(screen.getByRole('button', { name: 'Grade' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Grade « Lathe safety »' }))
    expect(dialog.getByText('Not defined')).toBeInTheDocument()
    await userEvent.click(dialog.getByRole('button', { name: 'Grade and close' }))
    expect(await dialog.findByText('At least one error remains to be corrected')).toBeInTheDocument()
    expect(dialog.getAllByText("This field can't stay empty")).toHaveLength(2)
    expect(sentRequests(fetchMock, GRADE)).toHaveLength(0)

    const slider = dialog.getByRole('slider')
    fireEvent.change(slider, { target: { value: 7.5 } })
    expect(dialog.getByText('7.5 / 10')).toBeInTheDocument()
    await userEvent.type(dialog.getByLabelText(/Comment/), 'Careful and precise')
    await userEvent.click(dialog.getByRole('button', { name: 'Grade and close' }))
    await waitFor(() => expect(sentRequests(fetchMock, GRADE)).toHaveLength(1))
    expect(await sentRequests(fetchMock, GRADE)[0].json()).toEqual({ grade: 7.5, comment: 'Careful and precise', version: 4 })
    expect(await screen.findByText('Module « Lathe safety » graded')).toBeInTheDocument()
  })

  it('moves the grade by whole points from the keyboard and takes tenths in the field beside the slider', async () => {
    const GRADE = `POST ${API}/0/grade`
    const fetchMock = serve(() => path({ assignedModules: [assigned({ status: 'finished', can: { ...NO_MODULE_ACTION, grade: true } })], can: { ...NOTHING, seeGrading: true } }), {
      [GRADE]: () => json(path({ assignedModules: [assigned({ status: 'validated' })] })),
    })
    open()
    await expand()
    await userEvent.click(screen.getByRole('button', { name: 'Grade' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Grade « Lathe safety »' }))
    const slider = dialog.getByRole('slider')
    const field = dialog.getByRole('textbox', { name: 'Grade out of 10' })
    expect(field).toHaveValue('')
    slider.focus()
    for (let press = 0; press < 9; press++) await userEvent.keyboard('{ArrowRight}')
    expect(dialog.getByText('9 / 10')).toBeInTheDocument()
    expect(field).toHaveValue('9')
    await userEvent.keyboard('{PageUp}')
    expect(slider).toHaveAttribute('aria-valuenow', '10')
    await userEvent.keyboard('{ArrowLeft}{PageDown}')
    expect(slider).toHaveAttribute('aria-valuenow', '8')

    await userEvent.clear(field)
    await userEvent.type(field, '12')
    await userEvent.type(dialog.getByLabelText(/Comment/), 'Careful and precise')
    await userEvent.click(dialog.getByRole('button', { name: 'Grade and close' }))
    expect(await dialog.findByText('The value is out of the allowed range')).toBeInTheDocument()
    expect(sentRequests(fetchMock, GRADE)).toHaveLength(0)

    await userEvent.clear(field)
    await userEvent.type(field, '7.46')
    expect(dialog.getByText('7.5 / 10')).toBeInTheDocument()
    expect(slider).toHaveAttribute('aria-valuenow', '7.5')
    await userEvent.click(dialog.getByRole('button', { name: 'Grade and close' }))
    await waitFor(() => expect(sentRequests(fetchMock, GRADE)).toHaveLength(1))
    expect(await sentRequests(fetchMock, GRADE)[0].json()).toEqual({ grade: 7.5, comment: 'Careful and precise', version: 4 })
  })

  it('signs a module with the satisfaction chosen, asking for the password again when the server requires it', async () => {
    const SIGN = `POST ${API}/0/sign`
    const signedModule = assigned({
      status: 'archived',
      signature: { comment: 'Useful', satisfaction: 4, date: '2026-03-12T08:30:00Z' },
      signatures: [
        { id: 1, userId: 3, userName: 'Chloé Roux', date: '2026-03-12T08:30:00Z', meaning: 'acknowledgement', userActive: true, modifiedAfterSignature: false, revoked: null },
      ],
    })
    const fetchMock = serve(() => path({ assignedModules: [assigned({ status: 'validated', can: { ...NO_MODULE_ACTION, sign: true } })] }), {
      [SIGN]: () =>
        sentRequests(fetchMock, REAUTHENTICATE).length === 0
          ? errorBody(401, 'Unauthorized', 'reauthenticationRequired')
          : json(path({ assignedModules: [signedModule] })),
      [REAUTHENTICATE]: () => new Response(null, { status: 204 }),
    })
    open()
    await expand()
    await userEvent.click(screen.getByRole('button', { name: 'Sign the module' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Sign the module « Lathe safety »' }))
    // Chosen as the keyboard does: jsdom has no layout to tell the star under the mouse.
    fireEvent.click(dialog.getByRole('radio', { name: '4 stars' }))
    await userEvent.type(dialog.getByLabelText('Comment'), 'Useful')
    await userEvent.click(dialog.getByRole('button', { name: 'Sign' }))
    const password = await screen.findByRole('dialog', { name: 'Confirm your identity to sign' })
    await userEvent.type(within(password).getByLabelText(/Password/), 'secret-password')
    await userEvent.click(within(password).getByRole('button', { name: 'Confirm and sign' }))
    expect(await screen.findByText('Your signature is recorded')).toBeInTheDocument()
    const signatures = within(screen.getByRole('region', { name: "Learner's signature — Lathe safety" }))
    expect(signatures.getByText('Chloé Roux')).toBeInTheDocument()
    expect(signatures.getByText(/Acknowledgement by the learner/)).toBeInTheDocument()
    const sent = sentRequests(fetchMock, SIGN)
    expect(sent).toHaveLength(2)
    expect(await sent[1].json()).toEqual({ satisfaction: 4, comment: 'Useful' })
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })

  it('shows the module buttons its can allows: starts at once, disables after a confirmation', async () => {
    const START = `POST ${API}/0/startNow`
    const DISABLE = `POST ${API}/0/disable`
    let current = path({ assignedModules: [assigned({ status: 'notStarted', can: { ...NO_MODULE_ACTION, start: true, disable: true } })] })
    const fetchMock = serve(() => current, {
      [START]: () => {
        current = path({ assignedModules: [assigned({ status: 'started', can: { ...NO_MODULE_ACTION, disable: true, grade: true } })] })
        return json(current)
      },
      [DISABLE]: () => {
        current = path({ assignedModules: [assigned({ status: 'disabled', disabled: true })] })
        return json(current)
      },
    })
    open()
    await expand()
    const buttons = () => within(screen.getByRole('group', { name: 'Actions on Lathe safety' }))
    expect(buttons().getByRole('button', { name: 'Disable' })).toBeInTheDocument()
    for (const name of ['Grade', 'Sign the module']) expect(buttons().queryByRole('button', { name })).not.toBeInTheDocument()
    await userEvent.click(buttons().getByRole('button', { name: 'Start now' }))
    expect(await screen.findByText('Module « Lathe safety » started')).toBeInTheDocument()
    expect(buttons().getByRole('button', { name: 'Grade' })).toBeInTheDocument()
    expect(buttons().queryByRole('button', { name: 'Start now' })).not.toBeInTheDocument()

    await userEvent.click(buttons().getByRole('button', { name: 'Disable' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Disable the module?' }))
    await userEvent.click(dialog.getByRole('button', { name: 'Disable' }))
    await waitFor(() => expect(sentRequests(fetchMock, DISABLE)).toHaveLength(1))
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Actions on Lathe safety' })).not.toBeInTheDocument())
    expect(sentRequests(fetchMock, START)).toHaveLength(1)
  })

  it('accepts after a confirmation; a refused action shows the error and reads the path again', async () => {
    const ACCEPT = `POST ${API}/accept`
    const fetchMock = serve(() => path({ status: 'notAccepted', acceptanceDate: null, can: { ...NOTHING, accept: true } }), {
      [ACCEPT]: () => errorBody(409, 'Conflict', 'illegalTransition', [{ field: 'status', code: 'canceled' }]),
    })
    open()
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Accept the path?' }))
    await userEvent.click(dialog.getByRole('button', { name: 'Accept' }))
    await waitFor(() => expect(sentRequests(fetchMock, ACCEPT)).toHaveLength(1))
    await waitFor(() => expect(sentRequests(fetchMock, PATH).length).toBeGreaterThanOrEqual(2))
    expect(await screen.findByText('An error occured')).toBeInTheDocument()
  })

  it('attaches a mediation found by its title to a mediation element', async () => {
    const mediationResult: Result = { ...base, index: 0, type: 'mediation', title: 'Watch a setting', mediationIds: [], mediations: [] }
    const ATTACH = `POST ${API}/0/0/mediation/attach/12`
    const attached = path({
      assignedModules: [
        assigned({
          results: [{ ...mediationResult, mediationIds: [12], mediations: [{ id: 12, title: 'Setting of lathe 3', status: 'created', readable: true, signedByLearner: false }] }],
          can: { ...NO_MODULE_ACTION, manageMediations: true },
        }),
      ],
    })
    const fetchMock = serve(() => path({ assignedModules: [assigned({ results: [mediationResult], can: { ...NO_MODULE_ACTION, manageMediations: true } })] }), {
      'POST /backend/api/v2/mediation/query': () =>
        json({
          results: [
            {
              id: 12,
              title: 'Setting of lathe 3',
              description: '',
              status: 'created',
              schedulingDate: null,
              executionStart: null,
              executionStop: null,
              creator: null,
              mediator: null,
              lastUpdate: null,
            },
          ],
          totalItems: 1,
        }),
      [ATTACH]: () => json(attached),
    })
    open()
    await expand()
    await userEvent.click(screen.getByRole('button', { name: 'Attach a mediation' }))
    const dialog = within(await screen.findByRole('dialog'))
    await userEvent.type(dialog.getByLabelText('Search by title'), 'lathe')
    const searched = async () => {
      const bodies = await Promise.all(sentRequests(fetchMock, 'POST /backend/api/v2/mediation/query').map((request) => request.clone().json()))
      return bodies.map((body: { filter: string }) => body.filter)
    }
    // Canceled mediations are not offered: they would never be validated.
    await waitFor(async () => expect(await searched()).toContain('status noneOf canceled & title contains lathe'))
    expect((await searched()).filter((filter: string) => !filter.startsWith('status noneOf canceled'))).toEqual([])
    await userEvent.click(await dialog.findByRole('button', { name: 'Attach Setting of lathe 3' }))
    await waitFor(() => expect(sentRequests(fetchMock, ATTACH)).toHaveLength(1))
    expect(await screen.findByRole('link', { name: 'Setting of lathe 3' })).toHaveAttribute('href', '/spotv2/mediation/view/12')
    expect(screen.getByRole('button', { name: 'Detach Setting of lathe 3' })).toBeInTheDocument()
  })

  it('goes to Forbidden for a hidden path and shows NotFound for an unknown one', async () => {
    fakeServer({ [PATH]: () => errorBody(403, 'Forbidden', 'forbidden') })
    const { router } = open()
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
    router.dispose()

    fakeServer({ [PATH]: () => errorBody(404, 'Not Found', 'trainingPathNotFound') })
    open()
    expect(await screen.findByText('The page or information sought was not found')).toBeInTheDocument()
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })
})
