import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { COURSES, CONSIGNATION, READS } from '../../components/courses/testData'
import i18n from '../../i18n'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import type { MyAttempt } from './api'
import { LmsPage } from './LmsPage'
import { sessionCan } from '../../test/session'

const WHO = 'GET /backend/api/v2/account/whoAmI'
const LIST = 'GET /backend/api/v2/lms/courses'
const TREE = 'GET /backend/api/v2/lms/courses/3'
const OTHER_TREE = 'GET /backend/api/v2/lms/courses/4'
const ATTEMPTS = 'GET /backend/api/v2/lms/attempts/mine'
const LAUNCH = 'POST /backend/api/v2/lms/items/12/launch'
const REMOVE = 'DELETE /backend/api/v2/lms/courses/3'
const ORGANIZATION = 'GET /backend/api/v2/organization/info'

const ATTEMPT: MyAttempt = {
  id: 1,
  quizId: 12,
  quizName: 'Quiz final',
  courseId: 3,
  courseTitle: 'Consignation',
  grade: 6,
  success: false,
  date: '2026-11-20T09:30:00Z',
}

// A training manager may import and remove courses, as whoAmI's and the courses' `can` say.
const who = (manager: boolean) => () =>
  json({
    id: 7,
    login: 'apprenant',
    firstName: 'Gabriel',
    lastName: 'Roux',
    externalId: null,
    displayName: 'Gabriel Roux',
    groups: [],
    permissions: [],
    can: sessionCan({ importCourses: manager }),
  })

function server(manager = false, attempts: () => MyAttempt[] = () => [ATTEMPT]) {
  return fakeServer({
    [WHO]: who(manager),
    [LIST]: () => json(manager ? COURSES : COURSES.map((course) => ({ ...course, can: READS }))),
    [TREE]: () => json(CONSIGNATION),
    [OTHER_TREE]: () => json({ id: 4, type: 'group', name: 'Gestes et postures', description: '', children: [] }),
    [ATTEMPTS]: () => json(attempts()),
    [LAUNCH]: () => json({ url: 'http://spot.test/backend/api/v2/lms/play/k3y/quiz.html?endpoint=x' }),
    [REMOVE]: () => new Response(null, { status: 204 }),
    [ORGANIZATION]: () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null, timeZone: 'Europe/Paris', courseMaxBytes: 500_000_000 }),
  })
}

const open = () => renderRoutes([{ path: 'lms', Component: LmsPage }], '/spotv2/lms')
const region = (name: string) => within(screen.getByRole('region', { name }))
const content = async () => within(await screen.findByRole('region', { name: 'Content of Consignation' }))

afterEach(() => vi.unstubAllGlobals())

describe('the learning platform page', () => {
  it('shows the catalogue and the first course tree, and names itself', async () => {
    server()
    open()
    expect(await screen.findByRole('heading', { level: 1, name: 'Learning platform' })).toBeInTheDocument()
    await waitFor(() => expect(document.title).toBe('Learning platform - Spot'))
    const catalogue = region('Courses')
    expect(await catalogue.findByRole('heading', { name: 'Consignation' })).toBeInTheDocument()
    expect(catalogue.getByText('Lockout–tagout basics')).toBeInTheDocument()
    expect(catalogue.getByText('1 reading · 1 quiz')).toBeInTheDocument()
    expect(catalogue.getByText('Imported on 2026-11-20')).toBeInTheDocument()
    expect(catalogue.getByRole('button', { name: 'Consignation' })).toHaveAttribute('aria-pressed', 'true')
    expect(await region('Content of Consignation').findByRole('tree')).toBeInTheDocument()
    await userEvent.click(catalogue.getByRole('button', { name: 'Gestes et postures' }))
    expect(await region('Content of Gestes et postures').findByText('This course holds no element.')).toBeInTheDocument()
  })

  it('gives the course tree the whole width of its card, the picked element below it', async () => {
    server()
    open()
    const section = await screen.findByRole('region', { name: 'Content of Consignation' })
    const tree = await within(section).findByRole('tree')
    // No column splits the card: the tree and what is picked in it are stacked.
    expect(section.querySelector('.MuiGrid-root')).toBeNull()
    const hint = within(section).getByText('Choose a reading or a quiz in the tree to launch it.')
    expect(tree.compareDocumentPosition(hint) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })

  it('launches the picked quiz in a tab opened on the click, cut from the page', async () => {
    const fetchMock = server()
    const tab = { opener: 'the page' as unknown, location: { href: '' }, close: vi.fn() }
    const windowOpen = vi.fn(() => tab)
    vi.stubGlobal('open', windowOpen)
    open()
    const tree = await content()
    await userEvent.click(await tree.findByText('Quiz final'))
    const panel = within(tree.getByRole('region', { name: 'Quiz final' }))
    expect(panel.getByText('Ten questions')).toBeInTheDocument()
    expect(panel.getByText('Pass mark: 8 / 10')).toBeInTheDocument()
    await userEvent.click(panel.getByRole('button', { name: 'Launch Quiz final' }))
    expect(windowOpen).toHaveBeenCalledWith('', '_blank')
    expect(tab.opener).toBeNull()
    await waitFor(() => expect(tab.location.href).toBe('http://spot.test/backend/api/v2/lms/play/k3y/quiz.html?endpoint=x'))
    expect(sentRequests(fetchMock, LAUNCH)).toHaveLength(1)
  })

  it('offers the launch address as a link when the browser refuses the tab', async () => {
    server()
    vi.stubGlobal('open', vi.fn(() => null))
    open()
    await userEvent.click(await screen.findByText('Les six étapes'))
    fakeServer({ 'POST /backend/api/v2/lms/items/11/launch': () => json({ url: 'http://spot.test/play/bases.html' }) })
    await userEvent.click(screen.getByRole('button', { name: 'Launch Les six étapes' }))
    const link = await screen.findByRole('link', { name: 'Launch Les six étapes' })
    expect(link).toHaveAttribute('href', 'http://spot.test/play/bases.html')
    expect(link).toHaveAttribute('target', '_blank')
    expect(link).toHaveAttribute('rel', 'noopener')
  })

  it('closes the blank tab when the launch is refused', async () => {
    server()
    const tab = { opener: null, location: { href: '' }, close: vi.fn() }
    vi.stubGlobal('open', vi.fn(() => tab))
    open()
    await userEvent.click(await (await content()).findByText('Quiz final'))
    fakeServer({ [LAUNCH]: () => errorBody(404, 'Not Found', 'lmsElementNotFound') })
    await userEvent.click(screen.getByRole('button', { name: 'Launch Quiz final' }))
    await waitFor(() => expect(tab.close).toHaveBeenCalled())
    expect(tab.location.href).toBe('')
  })

  it("lists the learner's attempts with grade out of 10, one decimal, passed or failed, newest first", async () => {
    server(false, () => [ATTEMPT, { ...ATTEMPT, id: 2, grade: 8.5, success: true, date: '2026-11-21T10:05:00Z' }])
    open()
    const attempts = region('My quiz attempts')
    const rows = await attempts.findAllByRole('listitem')
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^Quiz finalConsignation · 2026-11-21 \d\d:05.*8\.5 \/ 10Passed$/),
      expect.stringMatching(/^Quiz finalConsignation · 2026-11-20 \d\d:30.*6\.0 \/ 10Failed$/),
    ])
  })

  it('writes grades the French way in French', async () => {
    await i18n.changeLanguage('fr')
    server(false, () => [{ ...ATTEMPT, grade: 7.5, success: true }])
    open()
    const attempts = region('Mes tentatives aux quiz')
    expect(await attempts.findByText('7,5 / 10')).toBeInTheDocument()
    expect(attempts.getByText('Réussi')).toBeInTheDocument()
    expect(attempts.getByText(/^Consignation · 20\/11\/2026/)).toBeInTheDocument()
  })

  it('reads the attempts again when the tab comes back to the front (the quiz was answered in another one)', async () => {
    let attempts: MyAttempt[] = []
    const fetchMock = server(false, () => attempts)
    open()
    expect(await region('My quiz attempts').findByText('You have not taken any quiz yet.')).toBeInTheDocument()
    attempts = [{ ...ATTEMPT, grade: 10, success: true }]
    act(() => {
      fireEvent(window, new Event('visibilitychange'))
      fireEvent.focus(window)
    })
    expect(await region('My quiz attempts').findByText('10.0 / 10')).toBeInTheDocument()
    expect(sentRequests(fetchMock, ATTEMPTS).length).toBeGreaterThanOrEqual(2)
  })

  it('offers neither upload nor removal to a learner', async () => {
    server(false)
    open()
    await region('Courses').findByRole('heading', { name: 'Consignation' })
    expect(screen.queryByRole('button', { name: 'Import a course' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument()
  })

  it.each([
    [true, 'a training manager'],
    [false, 'a learner'],
  ])("offers a unit's statement log and waiver where the course allows them (%s: %s)", async (manager) => {
    server(manager)
    open()
    const tree = await content()
    await userEvent.click(await tree.findByText('Quiz final'))
    const panel = within(tree.getByRole('region', { name: 'Quiz final' }))
    expect(panel.getByRole('button', { name: 'Launch Quiz final' })).toBeInTheDocument()
    for (const name of ['Recorded statements of Quiz final', 'Waive for a learner: Quiz final']) {
      if (manager) expect(panel.getByRole('button', { name })).toBeInTheDocument()
      else expect(panel.queryByRole('button', { name })).not.toBeInTheDocument()
    }
  })

  it('lets a training manager remove a course after confirming', async () => {
    const fetchMock = server(true)
    open()
    await userEvent.click(await region('Courses').findByRole('button', { name: 'Remove Consignation' }))
    const dialog = within(screen.getByRole('dialog', { name: 'Remove the course' }))
    expect(dialog.getByText(/The course “Consignation” will leave the learning platform/)).toBeInTheDocument()
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }))
    expect(sentRequests(fetchMock, REMOVE)).toHaveLength(0)
    await userEvent.click(region('Courses').getByRole('button', { name: 'Remove Consignation' }))
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Remove the course' })).getByRole('button', { name: 'Remove' }))
    expect(await screen.findByText('Course “Consignation” removed')).toBeInTheDocument()
    expect(sentRequests(fetchMock, REMOVE)).toHaveLength(1)
    // The catalogue is read again.
    await waitFor(() => expect(sentRequests(fetchMock, LIST).length).toBeGreaterThanOrEqual(2))
  })

  it('lets a training manager open the upload dialog', async () => {
    server(true)
    open()
    await userEvent.click(await screen.findByRole('button', { name: 'Import a course' }))
    expect(screen.getByRole('dialog', { name: 'Import a cmi5 course package' })).toBeInTheDocument()
  })
})
