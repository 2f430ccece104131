import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { ForbiddenPage } from '../../components/ForbiddenPage'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import type { Mediation, MediationCan } from './api'
import { MediationViewPage } from './MediationViewPage'

const MEDIATION = 'GET /backend/api/v2/mediation/5'
const STATUS = 'POST /backend/api/v2/mediation/5/status'
const SIGN = 'POST /backend/api/v2/mediation/5/sign'
const REAUTHENTICATE = 'POST /backend/api/v2/account/reauthenticate'
const SHEET = 'GET /backend/api/v2/mediation/5/attendanceSheet'

const NOTHING: MediationCan = {
  edit: false,
  start: false,
  pause: false,
  resume: false,
  stop: false,
  editReport: false,
  validate: false,
  invalidate: false,
  sign: false,
  cancel: false,
  attendanceSheet: false,
  fields: { title: false, description: false, schedulingDate: false, mediator: false, participants: false, visibleByGroups: false, visibleByPersons: false },
  reportNeeds: [],
}

function mediation(changes: Partial<Mediation> = {}): Mediation {
  return {
    id: 5,
    title: 'Réglage du tour',
    description: 'First line\nSecond line',
    status: 'stopped',
    schedulingDate: '2026-03-10T09:00:00Z',
    executionStart: '2026-03-10T09:00:00Z',
    executionStop: '2026-03-10T11:04:00Z',
    creator: { id: 1, name: 'Alice Martin' },
    mediator: { id: 2, name: 'Bruno Petit' },
    lastUpdate: { userId: 2, userName: 'Bruno Petit', date: '2026-03-10T11:04:00Z' },
    participants: [
      { id: 3, name: 'Chloé Roux' },
      { id: 4, name: 'David Moreau (E42)' },
    ],
    visibleByGroups: [{ id: 7, name: 'Quality' }],
    visibleByPersons: [],
    inactivePeople: [],
    trackingPeriods: [
      { start: '2026-03-10T09:00:00Z', stop: '2026-03-10T09:59:00Z' },
      { start: '2026-03-10T10:30:00Z', stop: '2026-03-10T11:04:00Z' },
    ],
    durationMinutes: 95,
    discussionId: 40,
    reporting: null,
    signatures: [],
    version: 3,
    can: NOTHING,
    ...changes,
  }
}

const routes = [
  { path: 'mediation/view/:mediationId', Component: MediationViewPage },
  { path: 'mediations', Component: () => null },
  { path: 'forbidden', Component: ForbiddenPage },
]

const open = () => renderRoutes(routes, '/spotv2/mediation/view/5')
const actions = () => within(screen.getByRole('group', { name: 'Actions' }))

describe('mediation view', () => {
  it('saves a scheduled mediation as an event for one\'s calendar', async () => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:ics')
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
    const saved: string[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download)
    })
    const fetchMock = fakeServer({
      [MEDIATION]: () => json(mediation()),
      'GET /backend/api/v2/mediation/5/invitation.ics': () =>
        new Response('BEGIN:VCALENDAR', { headers: { 'Content-Type': 'text/calendar', 'Content-Disposition': 'attachment; filename="mediation-5.ics"' } }),
    })
    open()
    await screen.findByRole('heading', { level: 1 })
    await userEvent.click(actions().getByRole('button', { name: 'Add to my calendar' }))
    await waitFor(() => expect(saved).toEqual(['mediation-5.ics']))
    expect(sentRequests(fetchMock, 'GET /backend/api/v2/mediation/5/invitation.ics')).toHaveLength(1)
    vi.restoreAllMocks()
  })

  it('downloads the attendance sheet of a validated mediation, in the reader\'s language', async () => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:pdf')
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
    const saved: string[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download)
    })
    const fetchMock = fakeServer({
      [MEDIATION]: () => json(mediation({ status: 'validated', can: { ...NOTHING, attendanceSheet: true } })),
      [SHEET]: () =>
        new Response('%PDF-1.4', { headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="attendance-sheet-5.pdf"' } }),
    })
    open()
    await screen.findByRole('heading', { level: 1 })
    await userEvent.click(actions().getByRole('button', { name: 'Attendance sheet' }))
    await waitFor(() => expect(saved).toEqual(['attendance-sheet-5.pdf']))
    const [request] = sentRequests(fetchMock, SHEET)
    expect(request.headers.get('Accept-Language')).toBe('en')
    expect(await screen.findByText('Attendance sheet downloaded')).toBeInTheDocument()
    vi.restoreAllMocks()
  })

  it('offers no attendance sheet when the server says there is none', async () => {
    fakeServer({ [MEDIATION]: () => json(mediation({ status: 'stopped' })) })
    open()
    await screen.findByRole('heading', { level: 1 })
    expect(actions().queryByRole('button', { name: 'Attendance sheet' })).not.toBeInTheDocument()
  })

  it('reads the mediation again when it was invalidated before the sheet was asked', async () => {
    let reads = 0
    fakeServer({
      [MEDIATION]: () => {
        reads += 1
        return json(
          reads === 1 ? mediation({ status: 'validated', can: { ...NOTHING, attendanceSheet: true } }) : mediation({ status: 'stopped' }),
        )
      },
      [SHEET]: () => errorBody(409, 'Conflict', 'mediationNotValidated', [{ field: 'status', code: 'stopped' }]),
    })
    open()
    await screen.findByRole('heading', { level: 1 })
    await userEvent.click(actions().getByRole('button', { name: 'Attendance sheet' }))
    expect(await screen.findByText('The mediation changed meanwhile: it is now Stopped. It has been read again.')).toBeInTheDocument()
    await waitFor(() => expect(actions().queryByRole('button', { name: 'Attendance sheet' })).not.toBeInTheDocument())
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('marks the people who left as inactive, still named', async () => {
    fakeServer({ [MEDIATION]: () => json(mediation({ inactivePeople: [3, 2] })) })
    open()
    const details = within(await screen.findByRole('region', { name: 'Details' }))
    expect(details.getByText('Chloé Roux (inactive)')).toBeInTheDocument()
    expect(details.getByText('David Moreau (E42)')).toBeInTheDocument()
    // The mediator, named in full, with the mark beside the name.
    expect(details.getByText('Inactive').parentElement?.parentElement).toHaveTextContent('Bruno PetitInactive')
  })

  it('shows the details, the periods with their total duration and the report', async () => {
    const reported = mediation({
      reporting: {
        comment: 'Agreed on the new settings.\nTo check next week.',
        date: '2026-03-11T08:00:00Z',
        items: [
          {
            itemType: 'Tracking',
            trackingId: 90,
            relatedEntity: { entityType: 'subject', id: 12, name: 'Réglage du tour' },
            date: '2026-03-10T09:12:00Z',
            mode: 'W',
            event: 'updated',
          },
        ],
      },
    })
    fakeServer({ [MEDIATION]: () => json(reported) })
    open()
    expect(await screen.findByRole('heading', { level: 1, name: 'Réglage du tour' })).toBeInTheDocument()
    expect(screen.getByText(/First line\s+Second line/)).toHaveStyle({ whiteSpace: 'pre-line' })
    const details = within(screen.getByRole('region', { name: 'Details' }))
    expect(details.getByText('Alice Martin')).toBeInTheDocument()
    expect(details.getByText('Bruno Petit')).toBeInTheDocument()
    expect(details.getByText('David Moreau (E42)')).toBeInTheDocument()
    expect(details.getByText('Quality')).toBeInTheDocument()
    expect(screen.getByText('Total duration: 1 h 35 min')).toBeInTheDocument()
    expect(within(screen.getByRole('region', { name: 'Tracking' })).getAllByRole('listitem')).toHaveLength(2)
    const report = within(screen.getByRole('region', { name: 'Report' }))
    expect(report.getByText(/Agreed on the new settings/)).toBeInTheDocument()
    expect(report.getByText('2026-03-10 09:12 · Edit · Subject · Réglage du tour')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Discussion' })).toBeInTheDocument()
    expect(within(screen.getByRole('region', { name: 'Signatures' })).getByText('No signature yet.')).toBeInTheDocument()
  })

  it("words the report's lines in the reader's language, naming only the items the reader may read", async () => {
    const item = (trackingId: number, mode: 'R' | 'W', event: string | null, name: string | null) => ({
      itemType: 'Tracking' as const,
      trackingId,
      relatedEntity: { entityType: 'function', id: trackingId, name },
      date: '2026-03-10T09:12:00Z',
      mode,
      event,
    })
    const reported = mediation({
      reporting: { comment: '', date: '2026-03-11T08:00:00Z', items: [item(90, 'R', null, 'Régleur'), item(91, 'W', 'resolved', null)] },
    })
    fakeServer({ [MEDIATION]: () => json(reported) })
    const { router } = open()
    const report = async (name = 'Report') => within(await screen.findByRole('region', { name }))
    expect((await report()).getByText('2026-03-10 09:12 · Read · Function · Régleur')).toBeInTheDocument()
    expect((await report()).getByText('2026-03-10 09:12 · Resolution · Function · an item deleted or that you may not read')).toBeInTheDocument()
    router.dispose()

    const { default: i18n } = await import('../../i18n')
    await i18n.changeLanguage('fr')
    open()
    expect((await report('Compte rendu')).getByText('10/03/2026 09:12 · Lecture · Fonction · Régleur')).toBeInTheDocument()
    expect((await report('Compte rendu')).getByText('10/03/2026 09:12 · Résolution · Fonction · élément supprimé ou que vous ne pouvez pas lire')).toBeInTheDocument()
  })

  it('shows a period within one minute as that minute, not from and to the same time', async () => {
    const short = mediation({ trackingPeriods: [{ start: '2026-03-10T09:41:00Z', stop: '2026-03-10T09:41:00Z' }], durationMinutes: 1 })
    fakeServer({ [MEDIATION]: () => json(short) })
    open()
    const tracking = within(await screen.findByRole('region', { name: 'Tracking' }))
    expect(tracking.getByRole('listitem')).toHaveTextContent('On 2026-03-10 at 09:41 (1 min)')
  })

  it('tells the mediator that the report needs participants, with the way to add them', async () => {
    const lonely = mediation({
      status: 'started',
      participants: [],
      can: { ...NOTHING, edit: true, stop: true, reportNeeds: ['participants'], fields: { ...NOTHING.fields, participants: true } },
    })
    fakeServer({ [MEDIATION]: () => json(lonely) })
    open()
    const report = within(await screen.findByRole('region', { name: 'Report' }))
    expect(report.getByText('The report will need participants: add them to the mediation.')).toBeInTheDocument()
    expect(report.getByRole('link', { name: 'Add participants' })).toHaveAttribute('href', '/spotv2/mediation/edit/5')
  })

  it('shows only the actions the server allows', async () => {
    fakeServer({ [MEDIATION]: () => json(mediation({ status: 'started', can: { ...NOTHING, edit: true, pause: true, stop: true, cancel: true } })) })
    open()
    await screen.findByRole('heading', { level: 1 })
    expect(actions().getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/spotv2/mediation/edit/5')
    for (const name of ['Pause', 'Stop', 'Cancel the mediation']) expect(actions().getByRole('button', { name })).toBeInTheDocument()
    for (const name of ['Start', 'Resume', 'Validate', 'Invalidate']) expect(actions().queryByRole('button', { name })).not.toBeInTheDocument()
    expect(actions().queryByRole('link', { name: 'Edit the report' })).not.toBeInTheDocument()
  })

  it('shows nothing to do to a reader who may only read', async () => {
    fakeServer({ [MEDIATION]: () => json(mediation()) })
    open()
    await screen.findByRole('heading', { level: 1 })
    expect(actions().getAllByRole('link')).toHaveLength(1) // back to the list
    // Only what any reader may do: save the scheduled mediation to one's calendar.
    expect(actions().queryAllByRole('button').map((button) => button.textContent)).toEqual(['Add to my calendar'])
    expect(screen.queryByRole('button', { name: 'Sign' })).not.toBeInTheDocument()
  })

  it('starts at once, and stops only after a confirmation saying it is irreversible', async () => {
    let current = mediation({ status: 'created', can: { ...NOTHING, start: true } })
    const fetchMock = fakeServer({
      [MEDIATION]: () => json(current),
      [STATUS]: async (request) => {
        const { status } = (await request.clone().json()) as { status: string }
        current =
          status === 'started'
            ? mediation({ status: 'started', can: { ...NOTHING, pause: true, stop: true } })
            : mediation({ status: 'stopped', can: { ...NOTHING, editReport: true } })
        return json(current)
      },
    })
    open()
    await userEvent.click(await screen.findByRole('button', { name: 'Start' }))
    expect(await screen.findByText('Mediation started')).toBeInTheDocument()
    expect(await sentRequests(fetchMock, STATUS)[0].json()).toEqual({ status: 'started' })

    await userEvent.click(await screen.findByRole('button', { name: 'Stop' }))
    const dialog = await screen.findByRole('dialog', { name: 'Stop the mediation?' })
    expect(within(dialog).getByText(/irreversible/)).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Back' }))
    expect(sentRequests(fetchMock, STATUS)).toHaveLength(1)

    await userEvent.click(screen.getByRole('button', { name: 'Stop' }))
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Stop' }))
    expect(await screen.findByRole('link', { name: 'Edit the report' })).toHaveAttribute('href', '/spotv2/mediation/report/5')
    expect(await sentRequests(fetchMock, STATUS)[1].json()).toEqual({ status: 'stopped' })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('asks before invalidating (signatures revoked) and before canceling', async () => {
    const fetchMock = fakeServer({
      [MEDIATION]: () => json(mediation({ status: 'validated', can: { ...NOTHING, invalidate: true, cancel: true } })),
      [STATUS]: () => json(mediation({ status: 'stopped', can: { ...NOTHING, editReport: true, validate: true, cancel: true } })),
    })
    open()
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel the mediation' }))
    const cancel = within(await screen.findByRole('dialog', { name: 'Cancel the mediation?' }))
    expect(cancel.getByText(/irreversible/)).toBeInTheDocument()
    // Leaving the dialog does not read as one more way to cancel.
    expect(cancel.getAllByRole('button').map((button) => button.textContent)).toEqual(['Back', 'Cancel the mediation'])
    await userEvent.click(cancel.getByRole('button', { name: 'Back' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())

    await userEvent.click(screen.getByRole('button', { name: 'Invalidate' }))
    const dialog = await screen.findByRole('dialog', { name: 'Invalidate the mediation?' })
    expect(within(dialog).getByText(/Every signature is revoked/)).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Invalidate' }))
    expect(await screen.findByText('Mediation invalidated: its signatures are revoked')).toBeInTheDocument()
    expect(await sentRequests(fetchMock, STATUS)[0].json()).toEqual({ status: 'stopped' })
  })

  it('reads the mediation again and says its current status when a status change came too late (409)', async () => {
    let current = mediation({ status: 'started', can: { ...NOTHING, pause: true, stop: true } })
    const fetchMock = fakeServer({
      [MEDIATION]: () => json(current),
      [STATUS]: () => {
        current = mediation({ status: 'stopped', can: { ...NOTHING, editReport: true } })
        return errorBody(409, 'Conflict', 'illegalTransition', [{ field: 'status', code: 'stopped' }])
      },
    })
    open()
    await userEvent.click(await screen.findByRole('button', { name: 'Pause' }))
    // Shown on the page until dismissed, above the details.
    expect(await screen.findByRole('alert')).toHaveTextContent('The mediation changed meanwhile: it is now Stopped. It has been read again.')
    expect(await screen.findByRole('link', { name: 'Edit the report' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument()
    expect(sentRequests(fetchMock, MEDIATION).length).toBeGreaterThanOrEqual(2)
    // The conflict is explained on the page, not in the error dialog.
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })

  it('states what signing means, then signs after the password is asked again', async () => {
    let signed = false
    const signedMediation = mediation({
      status: 'validated',
      signatures: [
        {
          id: 1,
          userId: 3,
          userName: 'Chloé Roux',
          date: '2026-03-12T08:30:00Z',
          meaning: 'attendanceAndAgreement',
          userActive: true,
          modifiedAfterSignature: false,
          revoked: null,
        },
      ],
    })
    const fetchMock = fakeServer({
      [MEDIATION]: () => json(signed ? signedMediation : mediation({ status: 'validated', can: { ...NOTHING, sign: true } })),
      [SIGN]: () => {
        if (!signed && sentRequests(fetchMock, REAUTHENTICATE).length === 0) {
          return errorBody(401, 'Unauthorized', 'reauthenticationRequired')
        }
        signed = true
        return json(signedMediation)
      },
      [REAUTHENTICATE]: () => new Response(null, { status: 204 }),
    })
    open()
    const sign = await screen.findByRole('button', { name: 'Sign' })
    expect(sign).toHaveAccessibleDescription('By signing, you attest your attendance at this mediation and your agreement with its report.')
    await userEvent.click(sign)
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your identity to sign' })
    await userEvent.type(within(dialog).getByLabelText(/Password/), 'secret-password')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm and sign' }))
    expect(await screen.findByText('Your signature is recorded')).toBeInTheDocument()
    expect(within(screen.getByRole('region', { name: 'Signatures' })).getByText('Chloé Roux')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Sign' })).not.toBeInTheDocument()
    expect(sentRequests(fetchMock, SIGN)).toHaveLength(2)
    expect(await sentRequests(fetchMock, REAUTHENTICATE)[0].json()).toEqual({ password: 'secret-password' })
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })

  it('goes to Forbidden for a hidden mediation and shows NotFound for an unknown one', async () => {
    fakeServer({ [MEDIATION]: () => errorBody(403, 'Forbidden', 'Insufficient rights to view') })
    const { router } = open()
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
    router.dispose()

    fakeServer({})
    renderRoutes(routes, '/spotv2/mediation/view/77')
    expect(await screen.findByText('The page or information sought was not found')).toBeInTheDocument()
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })
})
