import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { NAVIGATION } from '../../app/shell/navigation'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import type { ReportConfiguration } from './api'
import { reportRoutes } from './routes'
import { configuration, DEFAULTS } from './testData'
import { sessionCan } from '../../test/session'

const API = '/backend/api/v2'
const CONFIGURATIONS = `${API}/account/configuration/trainingPathReports`
const PATHS = `POST ${API}/reports/trainingPaths/paths`
const EXCEL = `POST ${API}/reports/trainingPaths/excel`
const PDF = `POST ${API}/reports/trainingPaths/pdf`
const PAGE = '/spotv2/administration/trainingPathReport'

const user = (reportOnPaths: boolean) => ({ id: 3, login: 'alice', displayName: 'Alice Martin', permissions: [], can: sessionCan({ reportOnPaths }) })

function server({ reportOnPaths = true, saved = [] as ReportConfiguration[], extra = {} as Parameters<typeof fakeServer>[0] } = {}) {
  return fakeServer({
    [`GET ${API}/account/whoAmI`]: () => json(user(reportOnPaths)),
    [`GET ${CONFIGURATIONS}`]: () => json(saved),
    [`GET ${API}/reports/trainingPaths/defaults`]: () => json(DEFAULTS),
    [`POST ${API}/user/getUserNames`]: () => json([{ id: 4, name: 'Léa Petit' }]),
    [`POST ${API}/user/getGroupNames`]: () => json([{ id: 2, name: 'Opérateurs' }]),
    [`GET ${API}/user/search`]: () => json([{ id: 4, displayName: 'Léa Petit', login: 'lpetit' }]),
    ...extra,
  })
}

const routes = [...reportRoutes, { path: 'forbidden', Component: () => null }, { path: 'training/path/view/:pathId', Component: () => null }]

const open = async () => {
  const rendered = renderRoutes(routes, PAGE)
  await screen.findByRole('heading', { level: 1, name: 'Training path reports' })
  return rendered
}
const click = (name: string) => userEvent.click(screen.getByRole('button', { name }))

/** Watches the files the page saves: their names and contents. */
function watchDownloads() {
  const blobs = new Map<string, Blob>()
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:${blobs.size + 1}`
    blobs.set(url, blob as Blob)
    return url
  })
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
  const saved: { name: string; blob?: Blob }[] = []
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href) })
  })
  return saved
}

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('the permission guard', () => {
  it('opens the page to those the server says may report', async () => {
    server({ reportOnPaths: true })
    await open()
    expect(screen.getByRole('region', { name: 'Selection parameters' })).toBeInTheDocument()
  })

  it('sends the others to Forbidden', async () => {
    const fetchMock = server({ reportOnPaths: false })
    const { router } = renderRoutes(routes, PAGE)
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull()
    expect(sentRequests(fetchMock, `GET ${CONFIGURATIONS}`)).toHaveLength(0)
  })

  it('shows the drawer entry to the same people only', () => {
    const entry = NAVIGATION.find((item) => item.to === '/administration/trainingPathReport')
    expect(entry?.label).toBe('nav.trainingPathReport')
    expect(entry?.allowed({ permissions: [], can: sessionCan({ reportOnPaths: true }) })).toBe(true)
    expect(entry?.allowed({ permissions: ['perm_TableauBord', 'perm_TrainingManagement'], can: sessionCan() })).toBe(false)
  })
})

describe('opening the page', () => {
  it("starts from the server's defaults when the user has no default set", async () => {
    server()
    await open()
    expect(screen.getByRole('textbox', { name: 'Document title' })).toHaveValue('Training paths report')
    expect(screen.getByRole('textbox', { name: "Label of the manager's box" })).toHaveValue('Manager')
    const statuses = within(screen.getByRole('group', { name: 'Module statuses' }))
    expect(statuses.getByRole('checkbox', { name: 'Started' })).toBeChecked()
    expect(statuses.getByRole('checkbox', { name: 'Disabled' })).not.toBeChecked()
    expect(within(screen.getByRole('group', { name: 'Module types' })).getByRole('checkbox', { name: 'Training' })).toBeChecked()
    expect(within(screen.getByRole('group', { name: 'Module types' })).getByRole('checkbox', { name: 'Other' })).not.toBeChecked()
  })

  it('starts from the default set, its learners and groups named', async () => {
    const fetchMock = server({ saved: [configuration('Atelier'), configuration('Opérateurs 2026', { isDefault: true, documentOptions: { ...DEFAULTS.documentOptions, documentTitle: 'Bilan' } })] })
    await open()
    expect(screen.getByText('Parameters: Opérateurs 2026')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Document title' })).toHaveValue('Bilan')
    expect(await screen.findByRole('button', { name: 'Léa Petit' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Opérateurs' })).toBeInTheDocument()
    expect(sentRequests(fetchMock, `GET ${API}/reports/trainingPaths/defaults`)).toHaveLength(0)
  })
})

describe('the form rules', () => {
  it('sends nothing while a rule is broken, and says which', async () => {
    const fetchMock = server()
    await open()
    await userEvent.click(within(screen.getByRole('group', { name: 'Module types' })).getByRole('checkbox', { name: 'Training' }))
    await userEvent.clear(screen.getByRole('textbox', { name: 'Document title' }))
    await click('Excel export')
    expect(await screen.findByText('At least one error remains to be corrected')).toBeInTheDocument()
    expect(screen.getByText('Choose at least one learner or group')).toBeInTheDocument()
    expect(screen.getByText('Select at least one type')).toBeInTheDocument()
    expect(screen.getByText("This field can't stay empty")).toBeInTheDocument()
    await click('Generate report (PDF)')
    await click('Show training paths')
    expect(sentRequests(fetchMock, EXCEL)).toHaveLength(0)
    expect(sentRequests(fetchMock, PDF)).toHaveLength(0)
    expect(sentRequests(fetchMock, PATHS)).toHaveLength(0)
  })

  it('offers the mediators only with the mediations', async () => {
    server()
    await open()
    const options = within(screen.getByRole('group', { name: 'Module fields' }))
    expect(options.getByRole('checkbox', { name: 'Mediators' })).toBeEnabled()
    await userEvent.click(options.getByRole('checkbox', { name: 'Mediations' }))
    expect(options.getByRole('checkbox', { name: 'Mediators' })).toBeDisabled()
    expect(screen.getByText('Mediators are printed only with the mediations.')).toBeInTheDocument()
  })

  it("asks the manager's label only when the box is printed", async () => {
    server()
    await open()
    await userEvent.click(screen.getByRole('switch', { name: "Manager's signature box" }))
    expect(screen.queryByRole('textbox', { name: "Label of the manager's box" })).toBeNull()
  })

  it('previews a PNG signature image and sends it as a data URL', async () => {
    const fetchMock = await openWithLearner({ [PATHS]: () => json({ results: [], totalItems: 0 }) })
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])], 'signature.png', { type: 'image/png' })
    await userEvent.upload(screen.getByLabelText('Signature image file'), png)
    expect(await screen.findByRole('img', { name: 'The signature image' })).toHaveAttribute('src', expect.stringMatching(/^data:image\/png;base64,/))
    await click('Show training paths')
    await screen.findByRole('dialog', { name: 'Training paths of the report' })
    const body = await sentRequests(fetchMock, PATHS)[0].json()
    expect(body.documentOptions.signatureImage).toMatch(/^data:image\/png;base64,iVBORw0KGgo/)
    await userEvent.click(screen.getByRole('button', { name: 'Close' }))
    await click('Remove')
    expect(screen.queryByRole('img', { name: 'The signature image' })).toBeNull()
  })

  it('refuses a signature image that is neither a PNG nor a JPEG', async () => {
    server()
    await open()
    const gif = new File([new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61])], 'signature.png', { type: 'image/png' })
    await userEvent.upload(screen.getByLabelText('Signature image file'), gif)
    expect(await screen.findByText('Wrong type file')).toBeInTheDocument()
    expect(screen.queryByRole('img', { name: 'The signature image' })).toBeNull()
  })
})

/** Opens the page with a learner chosen in the default set. */
async function openWithLearner(extra: Parameters<typeof fakeServer>[0]) {
  const fetchMock = server({ saved: [configuration('Atelier', { isDefault: true })], extra })
  await open()
  await screen.findByRole('button', { name: 'Léa Petit' })
  return fetchMock
}

describe('the buttons', () => {
  it('shows the paths selected in a table', async () => {
    const row = { id: 8, title: 'Consignation', reference: 'P-01', learner: { id: 4, name: 'Léa Petit', active: true }, status: 'started', startDate: '2026-02-01', stopDate: '2026-03-01', modules: 2, completion: 50, completionColour: 'accent', averageGrade: 7.5 }
    const left = { ...row, id: 9, learner: { id: 5, name: 'Julien Bernard', active: false } }
    const fetchMock = await openWithLearner({ [PATHS]: () => json({ results: [row, left], totalItems: 2 }) })
    await click('Show training paths')
    const dialog = await screen.findByRole('dialog', { name: 'Training paths of the report' })
    // A person who left stays named, marked inactive; the others are not marked.
    expect(within(within(dialog).getAllByRole('row')[2]).getByText('Inactive')).toBeInTheDocument()
    expect(within(within(dialog).getAllByRole('row')[1]).queryByText('Inactive')).toBeNull()
    const cells = within(dialog).getAllByRole('row')[1]
    expect(within(cells).getByRole('link', { name: 'Consignation' })).toHaveAttribute('href', '/spotv2/training/path/view/8')
    expect(cells).toHaveTextContent('Léa Petit')
    expect(cells).toHaveTextContent('Started')
    expect(cells).toHaveTextContent('7.5 / 10')
    // The period may wrap between its two dates, so that the last column fits a 1366 px wide screen.
    const period = within(cells).getByText('2026-02-01 – 2026-03-01')
    expect(getComputedStyle(period).whiteSpace).not.toBe('nowrap')
    const [request] = sentRequests(fetchMock, PATHS)
    expect((await request.json()).selectors).toMatchObject({ learnerIdList: [4], groupIdList: [2], moduleTypes: ['training'] })
  })

  it('says when no path is selected', async () => {
    await openWithLearner({ [PATHS]: () => json({ results: [], totalItems: 0 }) })
    await click('Show training paths')
    const dialog = await screen.findByRole('dialog', { name: 'Training paths of the report' })
    expect(within(dialog).getByText('Nothing to display (empty list)')).toBeInTheDocument()
  })

  it('downloads the Excel file, its headers in the language of the page', async () => {
    const saved = watchDownloads()
    const fetchMock = await openWithLearner({
      [EXCEL]: () => new Response('xlsx', { headers: { 'Content-Disposition': 'attachment; filename="training-paths.xlsx"' } }),
    })
    await click('Excel export')
    expect(await screen.findByText('Excel file downloaded')).toBeInTheDocument()
    expect(saved.map((file) => file.name)).toEqual(['training-paths.xlsx'])
    expect(await saved[0].blob?.text()).toBe('xlsx')
    expect(sentRequests(fetchMock, EXCEL)[0].headers.get('Accept-Language')).toBe('en')
  })

  it('follows the job of an Excel file of more than 1,000 paths, then downloads it', async () => {
    const saved = watchDownloads()
    const job = (status: string) => ({
      id: 9,
      kind: 'reportExcel',
      status,
      done: status === 'succeeded' ? 400 : 100,
      total: 400,
      createdAt: '2026-11-30T10:00:00Z',
      startedAt: null,
      finishedAt: null,
      expiresAt: null,
      downloadName: status === 'succeeded' ? 'training-paths.xlsx' : null,
      error: null,
      errors: [],
      summary: null,
      can: { download: status === 'succeeded' },
    })
    let state = job('running')
    await openWithLearner({
      [EXCEL]: () => json(job('queued'), 202),
      [`GET ${API}/jobs/9`]: () => json(state),
      [`GET ${API}/jobs/9/result`]: () => new Response('xlsx', { headers: { 'Content-Disposition': 'attachment; filename="training-paths.xlsx"' } }),
    })
    await click('Excel export')
    expect(await screen.findByRole('progressbar', { name: 'Progress of the Excel export' })).toHaveAttribute('aria-valuenow', '25')
    state = job('succeeded')
    expect(await screen.findByText('Excel export ready: 400 learners')).toBeInTheDocument()
    await click('Download training-paths.xlsx')
    expect(await screen.findByText('Excel file downloaded')).toBeInTheDocument()
    expect(saved.map((file) => file.name)).toEqual(['training-paths.xlsx'])
  })

  it('shows nothingToExport without losing anything typed', async () => {
    await openWithLearner({ [EXCEL]: () => errorBody(422, 'Unprocessable Entity', 'nothingToExport') })
    await userEvent.clear(screen.getByRole('textbox', { name: 'Document title' }))
    await userEvent.type(screen.getByRole('textbox', { name: 'Document title' }), 'Bilan')
    await click('Excel export')
    expect(await screen.findByText('Nothing to export (empty list)')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Document title' })).toHaveValue('Bilan')
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it("puts the server's refusal on the field it names", async () => {
    await openWithLearner({ [PATHS]: () => errorBody(422, 'Unprocessable Entity', 'atLeastOneErrorLeft', [{ field: 'selectors.learnerIdList', code: 'userNotFound' }]) })
    await click('Show training paths')
    expect(await screen.findByText('This user does not exist (any more)')).toBeInTheDocument()
  })

  it('generates the PDFs as a job: its progress, then its download', async () => {
    const saved = watchDownloads()
    const fetchMock = await openWithLearner({})
    // The server answers the report at once with its job; the job is read until it succeeded.
    const job = (status: string, done: number) => ({
      id: 7,
      kind: 'reportZip',
      status,
      done,
      total: status === 'queued' ? 0 : 2,
      createdAt: '2026-11-30T10:00:00Z',
      startedAt: null,
      finishedAt: null,
      expiresAt: null,
      downloadName: status === 'succeeded' ? 'training-paths.zip' : null,
      error: null,
      errors: [],
      summary: null,
      can: { download: status === 'succeeded' },
    })
    let state = job('queued', 0)
    fetchMock.mockImplementation(async (request: Request) => {
      const path = new URL(request.url).pathname
      if (path === `${API}/reports/trainingPaths/pdf`) return json(state, 202)
      if (path === `${API}/jobs/7`) return json(state)
      if (path === `${API}/jobs/7/result`) return new Response('zip', { headers: { 'Content-Disposition': 'attachment; filename="training-paths.zip"' } })
      return errorBody(404, 'Not Found', 'notFound')
    })
    await click('Generate report (PDF)')
    expect(await screen.findByText('Preparing the reports…')).toBeInTheDocument()
    state = job('running', 1)
    expect(await screen.findByText('1 learner of 2')).toBeInTheDocument()
    expect(screen.getByRole('progressbar', { name: 'Progress of the PDF reports' })).toHaveAttribute('aria-valuenow', '50')
    state = job('succeeded', 2)
    expect(await screen.findByText('Reports ready: 2 learners')).toBeInTheDocument()
    expect(screen.queryByRole('progressbar', { name: 'Progress of the PDF reports' })).toBeNull()
    await click('Download training-paths.zip')
    expect(await screen.findByText('Reports downloaded')).toBeInTheDocument()
    expect(saved.map((file) => file.name)).toEqual(['training-paths.zip'])
    expect(sentRequests(fetchMock, `GET ${API}/jobs/7`).length).toBeGreaterThan(1)
  })

  it('says why a job failed', async () => {
    const fetchMock = await openWithLearner({})
    const failed = { id: 8, kind: 'reportZip', status: 'failed', done: 0, total: 2, createdAt: '2026-11-30T10:00:00Z', startedAt: null, finishedAt: null, expiresAt: null, downloadName: null, error: 'jobInterrupted', errors: [], summary: null, can: { download: false } }
    fetchMock.mockImplementation(async (request: Request) => {
      const path = new URL(request.url).pathname
      if (path === `${API}/reports/trainingPaths/pdf`) return json({ ...failed, status: 'queued', error: null }, 202)
      if (path === `${API}/jobs/8`) return json(failed)
      return errorBody(404, 'Not Found', 'notFound')
    })
    await click('Generate report (PDF)')
    expect(await screen.findByText('The job was interrupted by a server stop.')).toBeInTheDocument()
  })

  it('shows nothingToPrint', async () => {
    await openWithLearner({ [PDF]: () => errorBody(422, 'Unprocessable Entity', 'nothingToPrint') })
    await click('Generate report (PDF)')
    expect(await screen.findByText('Nothing to print (empty list)')).toBeInTheDocument()
  })
})

describe('the saved parameter sets', () => {
  it('saves the parameters under a name, as the default when asked, keeping the form as it is', async () => {
    let saved = [configuration('Atelier', { isDefault: true })]
    const fetchMock = server({
      saved,
      extra: {
        [`GET ${CONFIGURATIONS}`]: () => json(saved),
        [`POST ${CONFIGURATIONS}`]: async (request) => {
          const body = (await request.clone().json()) as ReportConfiguration
          saved = [{ ...saved[0], isDefault: false }, { ...body, isDefault: true }]
          return new Response(null, { status: 204 })
        },
      },
    })
    await open()
    await screen.findByRole('button', { name: 'Léa Petit' })
    const title = screen.getByRole('textbox', { name: 'Document title' })
    await userEvent.clear(title)
    await userEvent.type(title, 'Bilan de Lyon')
    await click('Save parameters')
    const dialog = await screen.findByRole('dialog', { name: 'Save parameters' })
    const name = within(dialog).getByRole('textbox', { name: 'Name' })
    expect(name).toHaveValue('Atelier')
    expect(within(dialog).getByText('A set of this name exists: saving replaces it.')).toBeInTheDocument()
    await userEvent.clear(name)
    await userEvent.type(name, 'Lyon')
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Open the page with these parameters (my default)' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    // The list is read again (the new default starred); the form stays as it was, its notice shown.
    await waitFor(() => expect(sentRequests(fetchMock, `GET ${CONFIGURATIONS}`).length).toBeGreaterThan(1))
    expect(await screen.findByText('Parameters “Lyon” saved')).toBeInTheDocument()
    const body = await sentRequests(fetchMock, `POST ${CONFIGURATIONS}`)[0].json()
    expect(body).toMatchObject({ name: 'Lyon', isDefault: true, selectors: { learnerIdList: [4], groupIdList: [2] }, documentOptions: { documentTitle: 'Bilan de Lyon' } })
    expect(screen.getByText('Parameters: Lyon')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Document title' })).toHaveValue('Bilan de Lyon')
    await click('Saved parameters')
    expect(await screen.findByRole('button', { name: 'Lyon Default' })).toBeInTheDocument()
  })

  it("keeps the overwritten set's default flag unless the switch is changed", async () => {
    const fetchMock = await openWithLearner({ [`POST ${CONFIGURATIONS}`]: () => new Response(null, { status: 204 }) })
    await click('Save parameters')
    const dialog = await screen.findByRole('dialog', { name: 'Save parameters' })
    expect(within(dialog).getByRole('switch', { name: 'Open the page with these parameters (my default)' })).toBeChecked()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sentRequests(fetchMock, `POST ${CONFIGURATIONS}`)).toHaveLength(1))
    expect(await sentRequests(fetchMock, `POST ${CONFIGURATIONS}`)[0].json()).toMatchObject({ name: 'Atelier', isDefault: null })
  })

  it('refuses an empty name', async () => {
    const fetchMock = await openWithLearner({})
    await click('Save parameters')
    const dialog = await screen.findByRole('dialog', { name: 'Save parameters' })
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'Name' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText("This field can't stay empty")).toBeInTheDocument()
    expect(sentRequests(fetchMock, `POST ${CONFIGURATIONS}`)).toHaveLength(0)
  })

  it('lists the sets, names cut to 25 characters, the default marked; loads one', async () => {
    const long = 'Rapport annuel des opérateurs de Lyon'
    server({
      saved: [
        configuration(long, { documentOptions: { ...DEFAULTS.documentOptions, documentTitle: 'Annuel' } }),
        configuration('Atelier', { isDefault: true }),
      ],
    })
    await open()
    await click('Saved parameters')
    const menu = await screen.findByRole('dialog', { name: 'Saved parameter sets' })
    expect(within(menu).getByText('Rapport annuel des opérat…')).toBeInTheDocument()
    expect(within(menu).getByRole('button', { name: 'Atelier Default' })).toBeInTheDocument()
    // Named by what it shows (a cut name), described by the whole name.
    const cut = within(menu).getByRole('button', { name: 'Rapport annuel des opérat…' })
    expect(cut).toHaveAccessibleDescription(long)
    await userEvent.click(cut)
    expect(await screen.findByText(`Parameters: ${long}`)).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Document title' })).toHaveValue('Annuel')
  })

  it('names each entry by the text it shows (axe label-content-name-mismatch)', async () => {
    server({ saved: [configuration('Rapport annuel des opérateurs de Lyon'), configuration('Atelier', { isDefault: true })] })
    await open()
    await click('Saved parameters')
    const menu = await screen.findByRole('dialog', { name: 'Saved parameter sets' })
    const entries = within(menu).getAllByRole('button').filter((button) => !button.getAttribute('aria-label')?.startsWith('Delete'))
    expect(entries).toHaveLength(2)
    for (const entry of entries) {
      const shown = [...entry.querySelectorAll('.MuiListItemText-primary, .MuiListItemText-secondary')].map((text) => text.textContent).join(' ')
      expect(within(menu).getByRole('button', { name: shown })).toBe(entry)
    }
  })

  it('deletes a set after asking', async () => {
    const fetchMock = server({ saved: [configuration('Atelier')], extra: { [`DELETE ${CONFIGURATIONS}/Atelier`]: () => new Response(null, { status: 204 }) } })
    await open()
    await click('Saved parameters')
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Atelier' }))
    const confirm = await screen.findByRole('dialog', { name: 'Delete the parameter set' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Parameter set “Atelier” deleted')).toBeInTheDocument()
    expect(sentRequests(fetchMock, `DELETE ${CONFIGURATIONS}/Atelier`)).toHaveLength(1)
  })
})
