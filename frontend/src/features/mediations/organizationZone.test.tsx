import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { setOrganizationTimeZone } from '../../lib/dates'
import { renderRoutes } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'
import type { Mediation, MediationCan } from './api'
import { EditMediationPage, NewMediationPage } from './MediationFormPage'
import { MediationReportPage } from './MediationReportPage'

/**
 * The browser in Paris, the organisation elsewhere: its pickers show and take the organisation's
 * clocks. The browser's zone is set whatever the zone the tests run in (Node reads TZ again when it
 * changes); only the clock is fixed, the pickers' debounce runs on real timers.
 */
function organisationIn(zone: string, now: string) {
  vi.stubEnv('TZ', 'Europe/Paris')
  setOrganizationTimeZone(zone)
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(now) })
}

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllEnvs()
  setOrganizationTimeZone(undefined)
})

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
  fields: { title: true, description: true, schedulingDate: true, mediator: true, participants: true, visibleByGroups: true, visibleByPersons: true },
  reportNeeds: [],
}

function mediation(changes: Partial<Mediation> = {}): Mediation {
  return {
    id: 5,
    title: 'Réglage du tour',
    description: '',
    status: 'created',
    schedulingDate: '2026-03-10T12:00:00Z',
    executionStart: null,
    executionStop: null,
    creator: { id: 2, name: 'Bruno Petit' },
    mediator: { id: 2, name: 'Bruno Petit' },
    lastUpdate: null,
    participants: [{ id: 3, name: 'Chloé Roux' }],
    visibleByGroups: [],
    visibleByPersons: [],
    inactivePeople: [],
    trackingPeriods: [],
    durationMinutes: 0,
    discussionId: null,
    reporting: null,
    signatures: [],
    version: 3,
    can: CAN,
    ...changes,
  }
}

const GET = 'GET /backend/api/v2/mediation/5'
const UPDATE = 'POST /backend/api/v2/mediation/5'
const CREATE = 'POST /backend/api/v2/mediation'
const ACTIONS = 'GET /backend/api/v2/mediation/5/trackedActions'
const TRACKING = 'POST /backend/api/v2/mediation/5/tracking'
const CHECK = 'POST /backend/api/v2/mediation/5/tracking/check'
const REPORT = 'POST /backend/api/v2/mediation/5/report'

const routes = [
  { path: 'mediation/add', Component: NewMediationPage },
  { path: 'mediation/edit/:mediationId', Component: EditMediationPage },
  { path: 'mediation/report/:mediationId', Component: MediationReportPage },
  { path: 'mediation/view/:mediationId', Component: () => null },
  { path: 'mediations/:filter?', Component: () => null },
]

const field = (name: string) => screen.getByRole('group', { name: new RegExp(`^${name}`) })

/** Types digits into a section (day, hours, minutes…) of a date or time field. */
async function typeSection(group: HTMLElement, section: string, digits: string) {
  await userEvent.click(within(group).getByRole('spinbutton', { name: section }))
  await userEvent.keyboard(digits)
}

/** Saves the edited mediation; what was sent. */
async function saveEdited(fetchMock: ReturnType<typeof fakeServer>) {
  await userEvent.click(screen.getByRole('button', { name: 'Save' }))
  await waitFor(() => expect(sentRequests(fetchMock, UPDATE)).toHaveLength(1))
  return (await sentRequests(fetchMock, UPDATE)[0].json()) as { schedulingDate: string }
}

describe("the mediation form, on the organisation's clocks", () => {
  it('shows a stored schedule as Auckland reads it, says so, and sends 09:30 in Auckland as its instant', async () => {
    organisationIn('Pacific/Auckland', '2026-03-01T00:00:00Z')
    const fetchMock = fakeServer({ [GET]: () => json(mediation()), [UPDATE]: () => json(mediation({ version: 4 })) })
    renderRoutes(routes, '/spotv2/mediation/edit/5')
    // 12:00 UTC is 01:00 the next day in Auckland (NZDT, UTC+13), 13:00 in Paris.
    await waitFor(() => expect(field('Date')).toHaveTextContent('2026-03-11'))
    expect(field('Time')).toHaveTextContent('01:00')
    expect(screen.getByText("Times are in the organisation's time zone: Pacific/Auckland (GMT+13).")).toBeInTheDocument()
    await typeSection(field('Time'), 'Hours', '09')
    await typeSection(field('Time'), 'Minutes', '30')
    await waitFor(() => expect(field('Time')).toHaveTextContent('09:30'))
    expect(await saveEdited(fetchMock)).toMatchObject({ schedulingDate: '2026-03-10T20:30:00.000Z' })
  })

  it('keeps 09:30 on Auckland clocks when the day moves past the end of its summer time', async () => {
    organisationIn('Pacific/Auckland', '2026-03-01T00:00:00Z')
    // 09:30 on 4 April in Auckland, still at UTC+13; summer time ends on the 5th at 03:00.
    const fetchMock = fakeServer({ [GET]: () => json(mediation({ schedulingDate: '2026-04-03T20:30:00Z' })), [UPDATE]: () => json(mediation()) })
    renderRoutes(routes, '/spotv2/mediation/edit/5')
    await waitFor(() => expect(field('Date')).toHaveTextContent('2026-04-04'))
    expect(field('Time')).toHaveTextContent('09:30')
    await typeSection(field('Date'), 'Day', '06')
    await waitFor(() => expect(field('Date')).toHaveTextContent('2026-04-06'))
    expect(field('Time')).toHaveTextContent('09:30')
    // The note follows the moment entered: UTC+12 from then on.
    expect(screen.getByText("Times are in the organisation's time zone: Pacific/Auckland (GMT+12).")).toBeInTheDocument()
    expect(await saveEdited(fetchMock)).toMatchObject({ schedulingDate: '2026-04-05T21:30:00.000Z' })
  })

  it("starts a new mediation at New York's next full hour and sends 09:30 after the clocks went forward at New York's offset", async () => {
    // 10:00 in New York (EST, UTC-5), 16:00 in Paris; New York's clocks go forward on 8 March.
    organisationIn('America/New_York', '2026-03-07T15:00:00Z')
    const fetchMock = fakeServer({
      'GET /backend/api/v2/account/whoAmI': () =>
        json({ id: 3, login: 'emilie', firstName: 'Émilie', lastName: 'Laurent', externalId: null, displayName: 'Émilie Laurent', groups: [], permissions: [] }),
      'GET /backend/api/v2/user/search': () => json([{ id: 7, displayName: 'Paul Martin', login: 'u7', firstName: '', lastName: '', externalId: null }]),
      [CREATE]: () => json({ id: 12 }),
    })
    renderRoutes(routes, '/spotv2/mediation/add')
    await userEvent.type(await screen.findByRole('textbox', { name: /^Title/ }), 'Réglage du tour')
    expect(field('Date')).toHaveTextContent('2026-03-07')
    expect(field('Time')).toHaveTextContent('11:00')
    expect(screen.getByText("Times are in the organisation's time zone: America/New_York (EST).")).toBeInTheDocument()
    await userEvent.type(screen.getByRole('combobox', { name: /^Participants/ }), 'paul')
    await userEvent.click(await screen.findByRole('option', { name: 'Paul Martin' }))
    await userEvent.click(screen.getByRole('button', { name: /^Choose date/ }))
    await userEvent.click(await screen.findByRole('gridcell', { name: '9' }))
    await waitFor(() => expect(field('Date')).toHaveTextContent('2026-03-09'))
    await typeSection(field('Time'), 'Hours', '09')
    await typeSection(field('Time'), 'Minutes', '30')
    await waitFor(() => expect(field('Time')).toHaveTextContent('09:30'))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sentRequests(fetchMock, CREATE)).toHaveLength(1))
    // EDT, UTC-4, from 8 March on.
    expect(await sentRequests(fetchMock, CREATE)[0].json()).toMatchObject({ schedulingDate: '2026-03-09T13:30:00.000Z' })
  })

  it('names no zone when the browser reads the same time as the organisation', async () => {
    organisationIn('Europe/Paris', '2026-03-01T00:00:00Z')
    fakeServer({ [GET]: () => json(mediation()) })
    renderRoutes(routes, '/spotv2/mediation/edit/5')
    await waitFor(() => expect(field('Time')).toHaveTextContent('13:00'))
    expect(screen.queryByText(/organisation's time zone/)).not.toBeInTheDocument()
  })
})

describe("the report's periods, on the organisation's clocks", () => {
  it("shows a stored period as Auckland reads it and saves a stop typed on Auckland's clocks", async () => {
    organisationIn('Pacific/Auckland', '2026-03-12T00:00:00Z')
    const reported = mediation({
      status: 'stopped',
      executionStart: '2026-03-10T12:00:00Z',
      executionStop: '2026-03-10T12:30:00Z',
      trackingPeriods: [{ start: '2026-03-10T12:00:00Z', stop: '2026-03-10T12:30:00Z' }],
    })
    const fetchMock = fakeServer({
      [GET]: () => json(reported),
      [ACTIONS]: () => json([]),
      [TRACKING]: () => json(mediation({ version: 4 })),
      [CHECK]: () => json({ errors: [] }),
      [REPORT]: () => json(mediation({ version: 5 })),
    })
    const { router } = renderRoutes(routes, '/spotv2/mediation/report/5')
    const period = within(await screen.findByRole('group', { name: 'Period 1' }))
    expect(period.getByRole('group', { name: 'Start date' })).toHaveTextContent('2026-03-11')
    expect(period.getByRole('group', { name: 'Start time' })).toHaveTextContent('01:00')
    expect(period.getByRole('group', { name: 'Stop time' })).toHaveTextContent('01:30')
    expect(screen.getByText("Times are in the organisation's time zone: Pacific/Auckland (GMT+13).")).toBeInTheDocument()
    await typeSection(period.getByRole('group', { name: 'Stop time' }), 'Hours', '09')
    await typeSection(period.getByRole('group', { name: 'Stop time' }), 'Minutes', '30')
    await waitFor(() => expect(period.getByRole('group', { name: 'Stop time' })).toHaveTextContent('09:30'))
    await userEvent.click(screen.getByRole('button', { name: 'Reload the actions' }))
    const asked = () => sentRequests(fetchMock, ACTIONS).map((request) => Object.fromEntries(new URL(request.url).searchParams))
    await waitFor(() => expect(asked()).toContainEqual({ start: '2026-03-10T12:00:00.000Z', stop: '2026-03-10T20:30:00.000Z' }))
    await userEvent.type(screen.getByRole('textbox', { name: 'Comment' }), 'Agreed')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/mediation/view/5'))
    expect(await sentRequests(fetchMock, TRACKING)[0].json()).toEqual({
      periods: [{ start: '2026-03-10T12:00:00.000Z', stop: '2026-03-10T20:30:00.000Z' }],
      version: 3,
    })
  })

  it("adds a first period at the organisation's current minute", async () => {
    organisationIn('Pacific/Auckland', '2026-03-12T00:00:00Z')
    fakeServer({ [GET]: () => json(mediation({ status: 'stopped' })), [ACTIONS]: () => json([]), [CHECK]: () => json({ errors: [] }) })
    renderRoutes(routes, '/spotv2/mediation/report/5')
    await userEvent.click(await screen.findByRole('button', { name: 'Add a period' }))
    const added = within(screen.getByRole('group', { name: 'Period 1' }))
    // 00:00 UTC is 13:00 in Auckland, 01:00 in Paris.
    expect(added.getByRole('group', { name: 'Start date' })).toHaveTextContent('2026-03-12')
    expect(added.getByRole('group', { name: 'Start time' })).toHaveTextContent('13:00')
    expect(added.getByRole('group', { name: 'Stop time' })).toHaveTextContent('13:00')
  })
})
