import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import axe from 'axe-core'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MAX_FILE_BYTES } from '../../../components/gallery/rules'
import { renderRoutes } from '../../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../../test/server'
import type { Subject } from '../api'
import type { Diagram, MindMap } from '../mindmap/types'
import { DiagramPage } from './DiagramPage'

const SUBJECT = 'GET /backend/api/v2/subject/5'
const MIND_MAP = 'GET /backend/api/v2/subject/5/mindmap'
const FILE = 'GET /backend/api/v2/subject/5/diagram/file'
const UPLOAD = 'POST /backend/api/v2/subject/5/diagram'
const REMOVE = 'DELETE /backend/api/v2/subject/5/diagram'
const INFO = 'GET /backend/api/v2/organization/info'

const PNG: Diagram = { name: 'flux.png', mediaType: 'image/png', url: '/backend/api/v2/subject/5/diagram/file?v=abc' }
const PDF: Diagram = { name: 'flux.pdf', mediaType: 'application/pdf', url: '/backend/api/v2/subject/5/diagram/file?v=def' }

function subject(hasDiagram: boolean): Subject {
  return {
    id: 5,
    code: 'USI-005',
    name: 'Réglage du tour',
    type: 'quality',
    cartographyId: 2,
    functionId: 12,
    activityId: 5,
    lifetimeEvents: { creation: null, lastUpdate: null, followed: null, resolved: null, criticity: null, standardized: null },
    ratings: { frequency: 0, gravity: 0, detectability: 0 },
    criticity: null,
    criticityLevel: null,
    mainNodeStatus: 'inProgress',
    hasDiagram,
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
    can: { edit: false, delete: false, duplicate: false, standardize: false, follow: false, resolve: false, rate: false, editMindMap: false, validateMindMap: false, editDiagram: false },
  }
}

function mindMap(diagram: Diagram | null, editDiagram: boolean): MindMap {
  return {
    subjectId: 5,
    subjectName: 'Réglage du tour',
    subjectCode: 'USI-005',
    version: 1,
    lastMindmapUpdate: null,
    standardized: false,
    diagram,
    nodes: [],
    can: { edit: false, validate: false, editDiagram },
  }
}

interface Setup {
  diagram: Diagram | null
  editDiagram?: boolean
  hasDiagram?: boolean
  legacyBaseUrl?: string | null
  handlers?: Record<string, (request: Request) => Response>
}

function show({ diagram, editDiagram = false, hasDiagram = diagram !== null, legacyBaseUrl = null, handlers = {} }: Setup) {
  const fetchMock = fakeServer({
    [SUBJECT]: () => json(subject(hasDiagram)),
    [MIND_MAP]: () => json(mindMap(diagram, editDiagram)),
    [FILE]: () => new Response('diagram', { headers: { 'Content-Type': diagram?.mediaType ?? 'image/png' } }),
    [INFO]: () => json({ customerName: '', applicationName: 'Spot', legacyBaseUrl }),
    ...handlers,
  })
  const routes = [
    { path: 'subject/:subjectId/diagram', Component: DiagramPage },
    { path: 'subject/:subjectId', Component: () => null },
    { path: 'forbidden', Component: () => null },
  ]
  const rendered = renderRoutes(routes, '/spotv2/subject/5/diagram')
  return { fetchMock, ...rendered }
}

const file = (name: string, type: string, size = 2048) => {
  const chosen = new File(['x'], name, { type })
  Object.defineProperty(chosen, 'size', { value: size })
  return chosen
}

beforeEach(() => {
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:diagram')
})

describe('the diagram page', () => {
  it('shows an image, zoomable, with its download link', async () => {
    const { fetchMock } = show({ diagram: PNG })
    expect(await screen.findByRole('heading', { name: 'Diagram of Réglage du tour' })).toBeInTheDocument()
    expect(await screen.findByRole('img', { name: 'flux.png' })).toHaveAttribute('src', 'blob:diagram')
    expect(screen.getByRole('button', { name: 'Zoom in' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Zoom out' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Download flux.png' })).toHaveAttribute('download', 'flux.png')
    expect(new URL(sentRequests(fetchMock, FILE)[0].url).searchParams.get('v')).toBe('abc')
    expect(document.title).toBe('Diagram - Spot')
  })

  it.each([
    { natural: [1200, 600], fitted: 'scale(0.325)' },
    { natural: [200, 100], fitted: 'scale(1)' },
  ])('fits an image of $natural to the frame at first, never enlarging it, and comes back to the fit', async ({ natural: [width, height], fitted }) => {
    // A phone's frame (390 × 420) and the image's own size, which jsdom does not lay out.
    vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(390)
    vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(420)
    vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('react-transform-component') ? width : 0
    })
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('react-transform-component') ? height : 0
    })
    show({ diagram: PNG })
    const image = await screen.findByRole('img', { name: 'flux.png' })
    const content = image.closest<HTMLElement>('.react-transform-component')
    fireEvent.load(image)
    await waitFor(() => expect(content?.style.transform).toContain(fitted))
    await userEvent.click(screen.getByRole('button', { name: 'Zoom in' }))
    await waitFor(() => expect(content?.style.transform).not.toContain(fitted))
    await userEvent.click(screen.getByRole('button', { name: 'Centre the diagram' }))
    await waitFor(() => expect(content?.style.transform).toContain(fitted))
    expect(screen.getByRole('link', { name: 'Download flux.png' })).toBeInTheDocument()
  })

  it('shows a PDF in the page with its download link', async () => {
    show({ diagram: PDF })
    const pdf = await screen.findByLabelText('flux.pdf')
    expect(pdf.tagName).toBe('OBJECT')
    expect(pdf).toHaveAttribute('data', 'blob:diagram')
    expect(pdf).toHaveAttribute('type', 'application/pdf')
    expect(screen.getByRole('link', { name: 'Download flux.pdf' })).toHaveAttribute('href', 'blob:diagram')
    expect(screen.queryByRole('button', { name: 'Zoom in' })).not.toBeInTheDocument()
  })

  it('is read-only without the right to edit the diagram', async () => {
    show({ diagram: PNG, editDiagram: false })
    expect(await screen.findByRole('img', { name: 'flux.png' })).toBeInTheDocument()
    expect(screen.queryByLabelText('Diagram file')).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Remove the diagram' })).not.toBeInTheDocument()
    expect(screen.queryByText(/Replace the diagram/)).not.toBeInTheDocument()
  })

  it('says there is none, without an upload button for a reader', async () => {
    show({ diagram: null, editDiagram: false })
    expect(await screen.findByText('This subject has no diagram.')).toBeInTheDocument()
    expect(screen.queryByLabelText('Diagram file')).not.toBeInTheDocument()
  })

  it('uploads a first diagram for an editor', async () => {
    const { fetchMock } = show({ diagram: null, editDiagram: true, handlers: { [UPLOAD]: () => json(PNG) } })
    expect(await screen.findByText('This subject has no diagram yet: add an image or a PDF.')).toBeInTheDocument()
    expect(screen.getByText('Add a diagram')).toBeInTheDocument()
    await userEvent.upload(screen.getByLabelText('Diagram file'), new File(['PNG'], 'plan détaillé.png', { type: 'image/png' }))
    expect(await screen.findByText('Diagram saved')).toBeInTheDocument()
    const [sent] = sentRequests(fetchMock, UPLOAD)
    // The raw file is the body (jsdom's File does not pass into Node's Request), its name URI-encoded in a header.
    expect(sent.headers.get('content-type')).toBe('application/octet-stream')
    expect(sent.headers.get('name')).toBe('plan%20d%C3%A9taill%C3%A9.png')
    // The page reads the subject and its diagram again.
    await waitFor(() => expect(sentRequests(fetchMock, MIND_MAP).length).toBeGreaterThan(1))
  })

  it('refuses another format and a file too big before sending, with the resources\' messages', async () => {
    const user = userEvent.setup({ applyAccept: false })
    const { fetchMock } = show({ diagram: PNG, editDiagram: true, handlers: { [UPLOAD]: () => json(PDF) } })
    expect(await screen.findByText('Replace the diagram')).toBeInTheDocument()
    await user.upload(screen.getByLabelText('Diagram file'), file('notes.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'))
    expect(await screen.findByText('Wrong type file')).toBeInTheDocument()
    await user.upload(screen.getByLabelText('Diagram file'), file('huge.pdf', 'application/pdf', MAX_FILE_BYTES + 1))
    expect(await screen.findByText('File is too big')).toBeInTheDocument()
    expect(screen.queryByText('Wrong type file')).not.toBeInTheDocument()
    expect(sentRequests(fetchMock, UPLOAD)).toHaveLength(0)
    // Exactly the limit is accepted.
    await user.upload(screen.getByLabelText('Diagram file'), file('limit.pdf', 'application/pdf', MAX_FILE_BYTES))
    expect(await screen.findByText('Diagram saved')).toBeInTheDocument()
    expect(screen.queryByText('File is too big')).not.toBeInTheDocument()
    expect(sentRequests(fetchMock, UPLOAD)).toHaveLength(1)
  })

  it("shows the server's refusal of a file beside the button", async () => {
    show({
      diagram: null,
      editDiagram: true,
      handlers: { [UPLOAD]: () => errorBody(400, 'Bad Request', 'badRequest', [{ field: 'file', code: 'badFileFormat' }]) },
    })
    await userEvent.upload(await screen.findByLabelText('Diagram file'), file('fake.png', 'image/png'))
    expect(await screen.findByText('Wrong type file')).toBeInTheDocument()
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
  })

  it('removes the diagram after confirmation only', async () => {
    const { fetchMock } = show({ diagram: PNG, editDiagram: true, handlers: { [REMOVE]: () => new Response(null, { status: 204 }) } })
    await userEvent.click(await screen.findByRole('button', { name: 'Remove the diagram' }))
    let dialog = await screen.findByRole('dialog', { name: 'Remove the diagram' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(sentRequests(fetchMock, REMOVE)).toHaveLength(0)

    await userEvent.click(screen.getByRole('button', { name: 'Remove the diagram' }))
    dialog = await screen.findByRole('dialog', { name: 'Remove the diagram' })
    expect(within(dialog).getByText('The diagram of this subject will be removed. This cannot be undone.')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove the diagram' }))
    expect(await screen.findByText('Diagram removed')).toBeInTheDocument()
    expect(sentRequests(fetchMock, REMOVE)).toHaveLength(1)
  })

  it('says a diagram kept by the legacy application is there, with its link when the legacy address is set', async () => {
    show({ diagram: null, hasDiagram: true, legacyBaseUrl: 'https://old.example.com/' })
    expect(await screen.findByText('The diagram of this subject is kept by the previous version of Spot.')).toBeInTheDocument()
    expect(await screen.findByRole('link', { name: 'Open it' })).toHaveAttribute(
      'href',
      `/spotv2/v1?to=${encodeURIComponent('spot/LYON/fonction/OPR/pdvbas/USI-005')}`,
    )
  })

  it('says so without a link when no legacy address is set', async () => {
    const { fetchMock } = show({ diagram: null, hasDiagram: true, legacyBaseUrl: null })
    expect(await screen.findByText('The diagram of this subject is kept by the previous version of Spot.')).toBeInTheDocument()
    await waitFor(() => expect(sentRequests(fetchMock, INFO)).toHaveLength(1))
    expect(screen.queryByRole('link', { name: 'Open it' })).not.toBeInTheDocument()
  })

  it('goes to Forbidden for a hidden subject', async () => {
    const { router } = show({ diagram: null, handlers: { [SUBJECT]: () => errorBody(403, 'Forbidden', 'Insufficient rights to view') } })
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
  })

  it.each([PNG, PDF])('has no serious or critical axe violation for an editor ($mediaType)', async (diagram) => {
    const { container } = show({ diagram, editDiagram: true })
    await screen.findByRole('link', { name: `Download ${diagram.name}` })
    const { violations } = await axe.run(container)
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([])
  })
})
