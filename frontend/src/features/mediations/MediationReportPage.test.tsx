import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import { ForbiddenPage } from '../../components/ForbiddenPage'
import i18n from '../../i18n'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import type { Mediation, MediationCan, TrackedAction } from './api'
import { MediationReportPage } from './MediationReportPage'

const MEDIATION = 'GET /backend/api/v2/mediation/5'
const ACTIONS = 'GET /backend/api/v2/mediation/5/trackedActions'
const TRACKING = 'POST /backend/api/v2/mediation/5/tracking'
const REPORT = 'POST /backend/api/v2/mediation/5/report'
const STATUS = 'POST /backend/api/v2/mediation/5/status'
const CHECK = 'POST /backend/api/v2/mediation/5/tracking/check'

/** The fake server, whose check of the periods accepts them unless a test says otherwise. */
const serve = (handlers: Parameters<typeof fakeServer>[0]) => fakeServer({ [CHECK]: () => json({ errors: [] }), ...handlers })

const CAN: MediationCan = {
  edit: true,
  start: false,
  pause: false,
  resume: false,
  stop: false,
  editReport: true,
  validate: false,
  invalidate: false,
  sign: false,
  cancel: true,
  attendanceSheet: false,
  fields: { title: true, description: true, schedulingDate: false, mediator: false, participants: true, visibleByGroups: false, visibleByPersons: false },
  reportNeeds: [],
}

function mediation(changes: Partial<Mediation> = {}): Mediation {
  return {
    id: 5,
    title: 'Réglage du tour',
    description: '',
    status: 'stopped',
    schedulingDate: null,
    executionStart: '2026-03-10T09:00:00Z',
    executionStop: '2026-03-10T11:04:00Z',
    creator: { id: 2, name: 'Bruno Petit' },
    mediator: { id: 2, name: 'Bruno Petit' },
    lastUpdate: null,
    participants: [{ id: 3, name: 'Chloé Roux' }],
    visibleByGroups: [],
    visibleByPersons: [],
    inactivePeople: [],
    trackingPeriods: [{ start: '2026-03-10T09:00:00Z', stop: '2026-03-10T11:04:00Z' }],
    durationMinutes: 125,
    discussionId: 40,
    reporting: null,
    signatures: [],
    version: 3,
    can: CAN,
    ...changes,
  }
}

const action = (id: number, date: string, mode: 'R' | 'W', entityName: string): TrackedAction => ({
  id,
  entityType: 'subject',
  entityKey: `S-${id}`,
  entityName,
  date,
  mode,
  event: mode === 'W' ? 'criticity' : null,
})
const FIRST = action(90, '2026-03-10T09:12:00Z', 'W', 'Réglage du tour')
const SECOND = action(91, '2026-03-10T10:40:00Z', 'R', 'Changement de série')
const LATER = action(95, '2026-03-10T11:05:00Z', 'R', 'Affûtage')

/** The actions of the period asked for: those of the first period, or the one of the minute after it. */
function trackedActions(request: Request) {
  const start = new URL(request.url).searchParams.get('start')
  return json(start === '2026-03-10T09:00:00.000Z' ? [SECOND, FIRST] : [LATER])
}

/** The line of an action as the page words it, in the test's time zone. */
const line = (tracked: TrackedAction, mode: string) =>
  `${dayjs(tracked.date).format('YYYY-MM-DD HH:mm')} · ${mode} · Subject · ${tracked.entityName}`

const routes = [
  { path: 'mediation/report/:mediationId', Component: MediationReportPage },
  { path: 'mediation/view/:mediationId', Component: () => null },
  { path: 'forbidden', Component: ForbiddenPage },
]
const open = () => renderRoutes(routes, '/spotv2/mediation/report/5')
const period = (number: number) => within(screen.getByRole('group', { name: `Period ${number}` }))

describe('mediation report', () => {
  it('keeps one period at least and lists the actions of the periods, oldest first', async () => {
    const fetchMock = serve({ [MEDIATION]: () => json(mediation()), [ACTIONS]: trackedActions })
    open()
    expect(await screen.findByRole('checkbox', { name: line(FIRST, 'Criticity rating') })).not.toBeChecked()
    const boxes = screen.getAllByRole('checkbox')
    expect(boxes.map((box) => box.closest('label')?.textContent)).toEqual([
      expect.stringContaining('Réglage du tour'),
      expect.stringContaining('Changement de série'),
    ])
    expect(period(1).getByRole('button', { name: 'Delete period 1' })).toBeDisabled()
    expect(screen.getByText('Total duration: 2 h 05 min')).toBeInTheDocument()
    const asked = new URL(sentRequests(fetchMock, ACTIONS)[0].url).searchParams
    expect(Object.fromEntries(asked)).toEqual({ start: '2026-03-10T09:00:00.000Z', stop: '2026-03-10T11:04:00.000Z' })

    await userEvent.click(screen.getByRole('button', { name: 'Add a period' }))
    expect(period(1).getByRole('button', { name: 'Delete period 1' })).toBeEnabled()
    await userEvent.click(period(2).getByRole('button', { name: 'Delete period 2' }))
    expect(screen.queryByRole('group', { name: 'Period 2' })).not.toBeInTheDocument()
    expect(period(1).getByRole('button', { name: 'Delete period 1' })).toBeDisabled()
  })

  it('blocks saving after a change of the periods until their actions are reloaded', async () => {
    const fetchMock = serve({ [MEDIATION]: () => json(mediation()), [ACTIONS]: trackedActions })
    open()
    await screen.findByRole('checkbox', { name: line(FIRST, 'Criticity rating') })
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled()

    await userEvent.click(screen.getByRole('button', { name: 'Add a period' }))
    expect(screen.getByText('The periods changed: reload the actions of the new periods before saving.')).toBeInTheDocument()
    // The out-of-date lines stay readable: a faded list (opacity under 1) would bring them under 4.5:1.
    const lines = screen.getByRole('checkbox', { name: line(FIRST, 'Criticity rating') }).closest('ul') as HTMLElement
    expect(getComputedStyle(lines).opacity).not.toMatch(/^0/)
    expect(screen.getByText('Saving waits until the actions of the new periods are reloaded.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Save and validate' })).toBeDisabled()

    await userEvent.click(screen.getByRole('button', { name: 'Reload the actions' }))
    expect(await screen.findByRole('checkbox', { name: line(LATER, 'Read') })).toBeInTheDocument()
    expect(screen.getAllByRole('checkbox')).toHaveLength(3)
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled()
    const periodsAsked = sentRequests(fetchMock, ACTIONS).map((request) => new URL(request.url).searchParams.get('start'))
    expect(periodsAsked).toContain('2026-03-10T11:05:00.000Z')
  })

  it("saves the changed periods, then shows the server's refusal of a report without comment or action", async () => {
    const fetchMock = serve({
      [MEDIATION]: () => json(mediation()),
      [ACTIONS]: trackedActions,
      [TRACKING]: () => json(mediation({ version: 4 })),
      [REPORT]: () => errorBody(400, 'Bad Request', 'Invalid data', [{ field: 'comment', code: 'commentOrActionSelectionNeeded' }]),
    })
    const { router } = open()
    await screen.findByRole('checkbox', { name: line(FIRST, 'Criticity rating') })
    await userEvent.click(screen.getByRole('button', { name: 'Add a period' }))
    await userEvent.click(screen.getByRole('button', { name: 'Reload the actions' }))
    await screen.findByRole('checkbox', { name: line(LATER, 'Read') })
    await userEvent.type(screen.getByRole('textbox', { name: 'Comment' }), '   ')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Write a comment or select at least one action')).toBeInTheDocument()
    expect(sentRequests(fetchMock, TRACKING)).toHaveLength(1)
    expect(await sentRequests(fetchMock, REPORT)[0].json()).toMatchObject({ comment: '', items: [], version: 4 })
    expect(router.state.location.pathname).toBe('/spotv2/mediation/report/5')
  })

  it('saves the comment and the chosen actions, without the unchanged periods, then goes back to the view', async () => {
    const fetchMock = serve({
      [MEDIATION]: () => json(mediation()),
      [ACTIONS]: trackedActions,
      [REPORT]: () => json(mediation({ version: 4 })),
    })
    const { router } = open()
    await userEvent.click(await screen.findByRole('checkbox', { name: line(SECOND, 'Read') }))
    await userEvent.type(screen.getByRole('textbox', { name: 'Comment' }), 'Agreed{Enter}To check next week')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/mediation/view/5'))
    expect(sentRequests(fetchMock, TRACKING)).toHaveLength(0)
    expect(sentRequests(fetchMock, STATUS)).toHaveLength(0)
    expect(await sentRequests(fetchMock, REPORT)[0].json()).toEqual({
      comment: 'Agreed\nTo check next week',
      // The chosen actions alone: each reader's page words them.
      items: [{ itemType: 'Tracking', trackingId: 91 }],
      version: 3,
    })
  })

  it('saves changed periods, then the report, then validates, each with the version the previous step answered', async () => {
    const reported = mediation({
      reporting: {
        comment: '',
        date: '2026-03-11T08:00:00Z',
        items: [
          {
            itemType: 'Tracking',
            trackingId: 90,
            relatedEntity: { entityType: 'subject', id: 90, name: FIRST.entityName },
            date: FIRST.date,
            mode: 'W',
            event: 'criticity',
          },
        ],
      },
    })
    const fetchMock = serve({
      [MEDIATION]: () => json(reported),
      [ACTIONS]: trackedActions,
      [TRACKING]: () => json(mediation({ version: 4 })),
      [REPORT]: () => json(mediation({ version: 5 })),
      [STATUS]: () => json(mediation({ version: 6, status: 'validated', can: { ...CAN, editReport: false } })),
    })
    const { router } = open()
    // The stored report's actions come checked.
    expect(await screen.findByRole('checkbox', { name: line(FIRST, 'Criticity rating') })).toBeChecked()
    await userEvent.click(screen.getByRole('button', { name: 'Add a period' }))
    await userEvent.click(screen.getByRole('button', { name: 'Reload the actions' }))
    await userEvent.click(await screen.findByRole('checkbox', { name: line(LATER, 'Read') }))
    await userEvent.click(screen.getByRole('button', { name: 'Save and validate' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/mediation/view/5'))

    const calls = fetchMock.mock.calls.map(([request]) => `${request.method} ${new URL(request.url).pathname}`)
    const order = [TRACKING, REPORT, STATUS].map((call) => calls.indexOf(call))
    expect(order).toEqual([...order].sort((a, b) => a - b))
    expect(await sentRequests(fetchMock, TRACKING)[0].json()).toEqual({
      periods: [
        { start: '2026-03-10T09:00:00.000Z', stop: '2026-03-10T11:04:00.000Z' },
        { start: '2026-03-10T11:05:00.000Z', stop: '2026-03-10T11:05:00.000Z' },
      ],
      version: 3,
    })
    expect(await sentRequests(fetchMock, REPORT)[0].json()).toEqual({
      comment: '',
      items: [
        { itemType: 'Tracking', trackingId: 90 },
        { itemType: 'Tracking', trackingId: 95 },
      ],
      version: 4,
    })
    expect(await sentRequests(fetchMock, STATUS)[0].json()).toEqual({ status: 'validated' })
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })

  it("shows the server's check of the periods on the period it names, and refuses to reload actions for it", async () => {
    const fetchMock = serve({
      [MEDIATION]: () => json(mediation()),
      [ACTIONS]: trackedActions,
      [CHECK]: async (request) => {
        const { periods } = (await request.clone().json()) as { periods: unknown[] }
        return json({ errors: periods.length > 1 ? [{ field: 'periods.1.stop', code: 'errors.greaterThanMax' }] : [] })
      },
    })
    open()
    await screen.findByRole('checkbox', { name: line(FIRST, 'Criticity rating') })
    await userEvent.click(screen.getByRole('button', { name: 'Add a period' }))
    expect(await period(2).findByText('Too late: choose an earlier value')).toBeInTheDocument()
    expect(period(1).queryByText('Too late: choose an earlier value')).not.toBeInTheDocument()
    expect(screen.getByText('At least one error remains to be corrected')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Reload the actions' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
    expect(await sentRequests(fetchMock, CHECK).at(-1)?.json()).toEqual({
      periods: [
        { start: '2026-03-10T09:00:00.000Z', stop: '2026-03-10T11:04:00.000Z' },
        { start: '2026-03-10T11:05:00.000Z', stop: '2026-03-10T11:05:00.000Z' },
      ],
    })

    await userEvent.click(period(2).getByRole('button', { name: 'Delete period 2' }))
    await waitFor(() => expect(screen.queryByText('At least one error remains to be corrected')).not.toBeInTheDocument())
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled()
  })

  it('shows the server refusal of a period on that period and keeps what was typed', async () => {
    serve({
      [MEDIATION]: () => json(mediation()),
      [ACTIONS]: trackedActions,
      [TRACKING]: () => errorBody(400, 'Bad Request', 'Invalid data', [{ field: 'periods.1.start', code: 'trackingPeriodDateConflict' }]),
    })
    const { router } = open()
    await screen.findByRole('checkbox', { name: line(FIRST, 'Criticity rating') })
    await userEvent.click(screen.getByRole('button', { name: 'Add a period' }))
    await userEvent.click(screen.getByRole('button', { name: 'Reload the actions' }))
    await screen.findByRole('checkbox', { name: line(LATER, 'Read') })
    await userEvent.type(screen.getByRole('textbox', { name: 'Comment' }), 'Agreed')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await period(2).findByText('This period overlaps another one')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveValue('Agreed')
    expect(router.state.location.pathname).toBe('/spotv2/mediation/report/5')
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })

  it('says when someone changed the mediation meanwhile (409), reads it again and saves with its new version', async () => {
    let version = 3
    const fetchMock = serve({
      [MEDIATION]: () => json(mediation({ version })),
      [ACTIONS]: trackedActions,
      [REPORT]: async (request) => {
        const sent = (await request.clone().json()) as { version: number }
        if (sent.version !== version) return errorBody(409, 'Conflict', 'staleVersion')
        return json(mediation({ version: version + 1 }))
      },
    })
    const { router } = open()
    await screen.findByRole('checkbox', { name: line(FIRST, 'Criticity rating') })
    version = 4
    await userEvent.type(screen.getByRole('textbox', { name: 'Comment' }), 'Agreed')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText(/Someone changed this mediation meanwhile/)).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveValue('Agreed')
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
    await waitFor(() => expect(sentRequests(fetchMock, MEDIATION).length).toBeGreaterThanOrEqual(2))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/mediation/view/5'))
    expect(((await sentRequests(fetchMock, REPORT)[1].json()) as { version: number }).version).toBe(4)
  })

  it('writes dates as French readers do', async () => {
    await i18n.changeLanguage('fr')
    serve({ [MEDIATION]: () => json(mediation()), [ACTIONS]: trackedActions })
    open()
    const start = await screen.findByRole('group', { name: 'Date de début' })
    expect(start).toHaveTextContent(dayjs('2026-03-10T09:00:00Z').format('DD/MM/YYYY'))
    expect(screen.getByRole('group', { name: 'Heure de fin' })).toHaveTextContent(dayjs('2026-03-10T11:04:00Z').format('HH:mm'))
  })

  it('tells the mediator of a mediation without participants to add them, with the way to do it', async () => {
    const lonely = mediation({ participants: [], can: { ...CAN, editReport: false, reportNeeds: ['participants'] } })
    serve({ [MEDIATION]: () => json(lonely) })
    const { router } = open()
    expect(await screen.findByText('The report can only be written with participants: add them to the mediation.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Add participants' })).toHaveAttribute('href', '/spotv2/mediation/edit/5')
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/spotv2/mediation/view/5')
    expect(router.state.location.pathname).toBe('/spotv2/mediation/report/5')
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument()
  })

  it('goes to Forbidden when the report may not be written, and shows NotFound for an unknown mediation', async () => {
    serve({ [MEDIATION]: () => json(mediation({ status: 'validated', can: { ...CAN, editReport: false } })) })
    const { router } = open()
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
    router.dispose()

    serve({})
    renderRoutes(routes, '/spotv2/mediation/report/77')
    expect(await screen.findByText('The page or information sought was not found')).toBeInTheDocument()
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })
})
