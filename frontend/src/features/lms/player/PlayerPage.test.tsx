import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { CourseNode } from '../../../components/courses/api'
import { renderRoutes } from '../../../test/render'
import { fakeServer, json, sentRequests } from '../../../test/server'
import type { CourseProgress } from './api'
import { PlayerPage } from './PlayerPage'

const leaf = (id: number, name: string, type: 'resource' | 'quiz' = 'resource') => ({ id, type, name, description: '', masteryScore: null })
const GOLF: CourseNode = {
  id: 5,
  type: 'group',
  name: 'Golf Explained',
  description: '',
  children: [
    { id: 6, type: 'group', name: 'Playing the Game', description: '', children: [leaf(10, 'How to Play'), leaf(11, 'Par'), leaf(12, 'Playing Golf Quiz', 'quiz')] },
    { id: 7, type: 'group', name: 'Etiquette', description: '', children: [leaf(20, 'Taking Care of the Course')] },
  ],
}
const unit = (itemId: number, changes: Partial<CourseProgress['units'][number]> = {}) => ({
  itemId,
  identifier: `item_${itemId}`,
  status: 'notAttempted' as const,
  grade: null,
  resumable: false,
  tracked: true,
  choice: true,
  flow: true,
  ...changes,
})
const PROGRESS: CourseProgress = {
  courseId: 5,
  standard: 'scorm2004',
  units: [unit(10, { status: 'completed' }), unit(11, { status: 'incomplete', resumable: true }), unit(12, { status: 'failed', grade: 4 }), unit(20)],
}
const CONTENT = 'http://localhost:8000'

function server(progress: () => CourseProgress = () => PROGRESS) {
  return fakeServer({
    'GET /backend/api/v2/lms/courses/5': () => json(GOLF),
    'GET /backend/api/v2/lms/courses/5/progress': () => json(progress()),
    ...Object.fromEntries(
      [10, 11, 12, 20].map((id) => [`POST /backend/api/v2/lms/items/${id}/launch`, () => json({ url: `${CONTENT}/backend/api/v2/lms/play/key-${id}/`, standard: 'scorm2004' })]),
    ),
  })
}

const open = (query = '') => renderRoutes([{ path: 'lms/courses/:courseId/player', Component: PlayerPage }], `/spotv2/lms/courses/5/player${query}`)

/** What the SCO's runtime posts, as if from the frame. */
function post(frame: HTMLIFrameElement, data: unknown, origin = CONTENT) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source: frame.contentWindow }))
  })
}

/** The runtime in a unit's frame, which answers the player's request to let the SCO go with `left`. */
async function runtimeOf(unitName: string) {
  const frame = await screen.findByTitle<HTMLIFrameElement>(`Unit: ${unitName}`)
  const asked = vi.spyOn(frame.contentWindow as Window, 'postMessage').mockImplementation(() => setTimeout(() => post(frame, { source: 'spot-scorm', event: 'left' }), 0))
  return { frame, asked }
}

describe('the SCORM player', () => {
  it('opens an asset of another site in a tab of its own rather than in its frame', async () => {
    fakeServer({
      'GET /backend/api/v2/lms/courses/5': () => json(GOLF),
      'GET /backend/api/v2/lms/courses/5/progress': () => json(PROGRESS),
      'POST /backend/api/v2/lms/items/20/launch': () => json({ url: 'https://example.com/etiquette.pdf', standard: 'scorm2004' }),
    })
    open('?item=20')
    const stage = within(await screen.findByRole('region', { name: 'Taking Care of the Course' }))
    expect(await stage.findByText('This unit is a document on another site: it opens in a tab of its own.')).toBeInTheDocument()
    const link = stage.getByRole('link', { name: 'Open in a new tab' })
    expect(link).toHaveAttribute('href', 'https://example.com/etiquette.pdf')
    expect(link).toHaveAttribute('target', '_blank')
    expect(screen.queryByTitle(/^Unit:/)).toBeNull()
  })

  it('lists the units under their blocks with their status, and opens the suspended one in a frame', async () => {
    const fetchMock = server()
    open()
    expect(await screen.findByRole('heading', { level: 1, name: 'Golf Explained' })).toBeInTheDocument()
    const contents = within(screen.getByRole('region', { name: 'Contents' }))
    expect(contents.getByText('1 of 4 done')).toBeInTheDocument()
    expect(contents.getByText('Playing the Game')).toBeInTheDocument()
    expect(contents.getByText('Completed')).toBeInTheDocument()
    expect(contents.getByText('In progress · resumes where you stopped')).toBeInTheDocument()
    expect(contents.getByText('Failed · 4.0 / 10')).toBeInTheDocument()
    expect(contents.getByRole('button', { name: /^Par/ })).toHaveAttribute('aria-current', 'step')
    const frame = await screen.findByTitle<HTMLIFrameElement>('Unit: Par')
    expect(frame.src).toBe(`${CONTENT}/backend/api/v2/lms/play/key-11/`)
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts allow-forms allow-same-origin allow-popups allow-modals')
    expect(sentRequests(fetchMock, 'POST /backend/api/v2/lms/items/11/launch')).toHaveLength(1)
  })

  it('opens the unit in the mode its module element asked for, and the next one Normal', async () => {
    const fetchMock = server()
    open('?item=10&mode=Browse')
    const stage = within(await screen.findByRole('region', { name: 'How to Play' }))
    expect(stage.getByText('Opened to look through: nothing you do here is recorded.')).toBeInTheDocument()
    await waitFor(() => expect(sentRequests(fetchMock, 'POST /backend/api/v2/lms/items/10/launch')).toHaveLength(1))
    expect(await sentRequests(fetchMock, 'POST /backend/api/v2/lms/items/10/launch')[0].json()).toEqual({ mode: 'Browse' })
    await runtimeOf('How to Play')
    await userEvent.click(stage.getByRole('button', { name: 'Next' }))
    const next = within(await screen.findByRole('region', { name: 'Par' }))
    expect(next.queryByText(/nothing you do here is recorded/)).toBeNull()
    await waitFor(() => expect(sentRequests(fetchMock, 'POST /backend/api/v2/lms/items/11/launch')).toHaveLength(1))
    expect(await sentRequests(fetchMock, 'POST /backend/api/v2/lms/items/11/launch')[0].text()).toBe('')
  })

  it('goes Previous and Next within the flow, and to a unit chosen in the contents, once the runtime has let the SCO go and the statuses are read again', async () => {
    const fetchMock = server()
    open('?item=10')
    const stage = within(await screen.findByRole('region', { name: 'How to Play' }))
    expect(stage.getByRole('button', { name: 'Previous' })).toBeDisabled()
    const first = await screen.findByTitle<HTMLIFrameElement>('Unit: How to Play')
    const asked = vi.spyOn(first.contentWindow as Window, 'postMessage').mockImplementation(() => undefined)
    const reads = () => sentRequests(fetchMock, 'GET /backend/api/v2/lms/courses/5/progress').length
    const before = reads()
    await userEvent.click(stage.getByRole('button', { name: 'Next' }))
    // The unit stays until its runtime says the SCO is gone (its last commit answered).
    expect(asked).toHaveBeenCalledWith({ source: 'spot-player', event: 'leave' }, '*')
    expect(screen.getByTitle('Unit: How to Play')).toBe(first)
    expect(screen.queryByTitle('Unit: Par')).toBeNull()
    post(first, { source: 'spot-scorm', event: 'terminated', navRequest: 'previous' })
    expect(screen.getByTitle('Unit: How to Play')).toBe(first)
    post(first, { source: 'spot-scorm', event: 'left' })
    await runtimeOf('Par')
    expect(reads()).toBeGreaterThan(before)
    await userEvent.click(within(screen.getByRole('region', { name: 'Contents' })).getByRole('button', { name: /Taking Care of the Course/ }))
    const last = within(await screen.findByRole('region', { name: 'Taking Care of the Course' }))
    expect(last.getByRole('button', { name: 'Next' })).toBeDisabled()
    await waitFor(() => expect(sentRequests(fetchMock, 'POST /backend/api/v2/lms/items/20/launch')).toHaveLength(1))
  })

  it('reads the statuses again on a commit, follows a continue request and says when the unit was left', async () => {
    let progress = PROGRESS
    const fetchMock = server(() => progress)
    open('?item=11')
    const frame = await screen.findByTitle<HTMLIFrameElement>('Unit: Par')
    progress = { ...PROGRESS, units: PROGRESS.units.map((row) => (row.itemId === 11 ? { ...row, status: 'completed', resumable: false } : row)) }
    post(frame, { source: 'spot-scorm', event: 'committed' })
    expect(await within(screen.getByRole('region', { name: 'Contents' })).findByText('2 of 4 done')).toBeInTheDocument()
    // Another origin, or another frame, is not heard.
    post(frame, { source: 'spot-scorm', event: 'terminated', navRequest: 'continue' }, 'https://evil.example')
    expect(screen.getByTitle('Unit: Par')).toBeInTheDocument()
    post(frame, { source: 'spot-scorm', event: 'terminated', navRequest: 'continue' })
    const quizFrame = await screen.findByTitle<HTMLIFrameElement>('Unit: Playing Golf Quiz')
    // A choice names the unit by its manifest identifier.
    post(quizFrame, { source: 'spot-scorm', event: 'terminated', navRequest: '{target=item_20}choice' })
    const chosenFrame = await screen.findByTitle<HTMLIFrameElement>('Unit: Taking Care of the Course')
    post(chosenFrame, { source: 'spot-scorm', event: 'terminated', navRequest: '{target=item_12}choice' })
    const quizAgain = await screen.findByTitle<HTMLIFrameElement>('Unit: Playing Golf Quiz')
    post(quizAgain, { source: 'spot-scorm', event: 'terminated' })
    expect(await screen.findByText('You have left this unit. Choose another in the contents, or open it again.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Open again' }))
    await waitFor(() => expect(sentRequests(fetchMock, 'POST /backend/api/v2/lms/items/12/launch')).toHaveLength(3))
    // A launch whose CMI could not be read (over, or already terminated) is said so, and opened again on demand.
    post(await screen.findByTitle<HTMLIFrameElement>('Unit: Playing Golf Quiz'), { source: 'spot-scorm', event: 'unavailable' })
    expect(await screen.findByText('This launch of the unit is over. Open it again to go on.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Open again' }))
    expect(await screen.findByTitle('Unit: Playing Golf Quiz')).toBeInTheDocument()
  })

  it('keeps a unit whose block allows no choice out of reach of the contents, and sends cmi5 courses to the catalogue', async () => {
    server(() => ({ ...PROGRESS, units: PROGRESS.units.map((row) => (row.itemId === 20 ? { ...row, choice: false, flow: false } : row)) }))
    const first = open('?item=10')
    const contents = within(await screen.findByRole('region', { name: 'Contents' }))
    expect(contents.getByRole('button', { name: /Taking Care of the Course/ })).toHaveAttribute('aria-disabled', 'true')
    first.unmount()
    server(() => ({ ...PROGRESS, standard: 'cmi5' }))
    open()
    expect(await screen.findByText('The units of this course open in a tab of their own, from the catalogue.')).toBeInTheDocument()
    expect(screen.queryByTitle(/^Unit:/)).toBeNull()
  })
})
