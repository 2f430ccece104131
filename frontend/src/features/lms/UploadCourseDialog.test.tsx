import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import i18n from '../../i18n'
import { renderWithClient } from '../../test/render'
import { fakeServer, json } from '../../test/server'
import { answer, FakeUpload } from '../../test/upload'
import { UploadCourseDialog } from './UploadCourseDialog'

afterEach(() => vi.unstubAllGlobals())

const COURSE = { id: 9, title: 'Consignation', created: true, items: 3 }

/** The job that imports a package the server took (docs/operations.md, "Jobs"). */
const job = (status: string, summary: object | null = null, error: string | null = null, errors: { field: string; code: string }[] = []) => ({
  id: 5,
  kind: 'courseImport',
  status,
  done: 0,
  total: 0,
  createdAt: '2026-11-30T10:00:00Z',
  startedAt: null,
  finishedAt: null,
  expiresAt: null,
  downloadName: null,
  error,
  errors,
  summary,
  can: { download: false },
})

/** The server takes the package (202, its job queued) and the job ends as `ended` says when read. */
function importedAs(ended: ReturnType<typeof job>) {
  answer(202, job('queued'))
  return fakeServer({ 'GET /backend/api/v2/jobs/5': () => json(ended) })
}

const MAX_BYTES = 500_000_000

const zip = (name = 'course.zip', size = 100) => {
  const file = new File(['PK'], name, { type: 'application/zip' })
  Object.defineProperty(file, 'size', { value: size })
  return file
}

async function send(file: File) {
  await userEvent.upload(screen.getByLabelText('Choose a file'), file)
  await userEvent.click(screen.getByRole('button', { name: 'Import' }))
}

describe('the course upload', () => {
  it('sends the package as the body and gives the course its job imported', async () => {
    importedAs(job('succeeded', COURSE))
    const onDone = vi.fn()
    renderWithClient(<UploadCourseDialog maxBytes={MAX_BYTES} onClose={() => undefined} onDone={onDone} />)
    const file = zip()
    await send(file)
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(COURSE))
    expect(onDone).toHaveBeenCalledTimes(1)
    expect(FakeUpload.sent).toEqual([{ url: '/backend/api/v2/lms/courses', headers: { 'Content-Type': 'application/zip' }, body: file }])
  })

  it('shows the import going on while the job runs, then gives its course', async () => {
    let state = job('running')
    answer(202, job('queued'))
    fakeServer({ 'GET /backend/api/v2/jobs/5': () => json(state) })
    const onDone = vi.fn()
    renderWithClient(<UploadCourseDialog maxBytes={MAX_BYTES} onClose={() => undefined} onDone={onDone} />)
    await send(zip())
    // Queued as the server's 202 said, then running once the job is read.
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('Importing the course… You may close this window: the import goes on, and the bell tells you when it has ended.'),
    )
    expect(screen.getByRole('progressbar', { name: 'Importing the course…' })).toBeInTheDocument()
    // Closing leaves the job to the server; importing again waits for it.
    expect(screen.getByRole('button', { name: 'Close' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Choose a file' })).toHaveAttribute('aria-disabled', 'true')
    expect(onDone).not.toHaveBeenCalled()
    state = job('succeeded', COURSE)
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(COURSE))
  })

  it('says in French that the import waits, then why its job failed, naming the entry', async () => {
    await i18n.changeLanguage('fr')
    let state = job('queued')
    answer(202, job('queued'))
    fakeServer({ 'GET /backend/api/v2/jobs/5': () => json(state) })
    const onDone = vi.fn()
    renderWithClient(<UploadCourseDialog maxBytes={MAX_BYTES} onClose={() => undefined} onDone={onDone} />)
    await userEvent.upload(screen.getByLabelText('Choisir un fichier'), zip())
    await userEvent.click(screen.getByRole('button', { name: 'Importer' }))
    expect(await screen.findByRole('status')).toHaveTextContent('En attente de démarrage… Vous pouvez fermer cette fenêtre')
    state = job('failed', null, 'invalidCoursePackage', [{ field: 'imsmanifest.xml:/manifest/resources', code: 'notFound' }])
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent("Ce fichier n'est pas un paquet de cours cmi5 valide")
    expect(alert).toHaveTextContent('Entrée en cause : imsmanifest.xml:/manifest/resources (introuvable dans le paquet)')
    expect(screen.queryByRole('status')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Importer' })).toBeEnabled()
    expect(onDone).not.toHaveBeenCalled()
  })

  it('says that the job was interrupted', async () => {
    importedAs(job('failed', null, 'jobInterrupted'))
    renderWithClient(<UploadCourseDialog maxBytes={MAX_BYTES} onClose={() => undefined} onDone={() => undefined} />)
    await send(zip())
    expect(await screen.findByRole('alert')).toHaveTextContent('The job was interrupted by a server stop.')
  })

  it('sends a cmi5.xml alone as XML', async () => {
    importedAs(job('succeeded', { id: 10, title: 'En ligne', created: true, items: 2 }))
    const onDone = vi.fn()
    renderWithClient(<UploadCourseDialog maxBytes={MAX_BYTES} onClose={() => undefined} onDone={onDone} />)
    const file = new File(['<?xml version="1.0"?><courseStructure/>'], 'cmi5.xml', { type: 'text/xml' })
    await send(file)
    await waitFor(() => expect(onDone).toHaveBeenCalled())
    expect(FakeUpload.sent).toEqual([{ url: '/backend/api/v2/lms/courses', headers: { 'Content-Type': 'application/xml' }, body: file }])
  })

  it('shows the progress while sending', async () => {
    answer(202, job('queued'))
    // The package still on its way: no answer yet.
    vi.stubGlobal(
      'XMLHttpRequest',
      class extends FakeUpload {
        send(body: unknown) {
          FakeUpload.sent.push({ url: '', headers: {}, body })
          this.upload.onprogress?.({ lengthComputable: true, loaded: 40, total: 100 })
        }
      },
    )
    renderWithClient(<UploadCourseDialog maxBytes={MAX_BYTES} onClose={() => undefined} onDone={() => undefined} />)
    await send(zip())
    expect(await screen.findByRole('progressbar', { name: 'Sending the package' })).toHaveAttribute('aria-valuenow', '40')
    expect(screen.getByText('Sending: 40 %')).toBeInTheDocument()
  })

  it('says why the server refused the package and which entry is at fault', async () => {
    answer(400, {
      status: 400,
      reason: 'Bad Request',
      message: 'invalidCoursePackage',
      errors: [{ field: 'cmi5.xml/course/au[1]/url', code: 'notFound' }],
    })
    const onDone = vi.fn()
    renderWithClient(<UploadCourseDialog maxBytes={MAX_BYTES} onClose={() => undefined} onDone={onDone} />)
    await send(zip())
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('This file is not a valid cmi5 course package')
    expect(alert).toHaveTextContent('Faulty entry: cmi5.xml/course/au[1]/url (not found in the package)')
    expect(onDone).not.toHaveBeenCalled()
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
  })

  it('says so in French too, with the general codes of forms for the others', async () => {
    await i18n.changeLanguage('fr')
    answer(400, { status: 400, reason: 'Bad Request', message: 'invalidCoursePackage', errors: [{ field: 'cmi5.xml/course@id', code: 'emptyFieldError' }] })
    renderWithClient(<UploadCourseDialog maxBytes={MAX_BYTES} onClose={() => undefined} onDone={() => undefined} />)
    await userEvent.upload(screen.getByLabelText('Choisir un fichier'), zip())
    await userEvent.click(screen.getByRole('button', { name: 'Importer' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent("Ce fichier n'est pas un paquet de cours cmi5 valide")
    expect(alert).toHaveTextContent('Entrée en cause : cmi5.xml/course@id (absent ou vide)')
  })

  it('names a fault of the whole archive in French words', async () => {
    await i18n.changeLanguage('fr')
    answer(400, { status: 400, reason: 'Bad Request', message: 'invalidCoursePackage', errors: [{ field: 'package', code: 'notAZipFile' }] })
    renderWithClient(<UploadCourseDialog maxBytes={MAX_BYTES} onClose={() => undefined} onDone={() => undefined} />)
    await userEvent.upload(screen.getByLabelText('Choisir un fichier'), zip())
    await userEvent.click(screen.getByRole('button', { name: 'Importer' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent("Le paquet : ce n'est pas une archive zip")
    expect(alert.textContent).not.toMatch(/package/)
  })

  it('says the file is too big when the server stops it (413)', async () => {
    answer(413, { status: 413, reason: 'Content Too Large', message: 'fileTooBig', errors: [] })
    renderWithClient(<UploadCourseDialog maxBytes={MAX_BYTES} onClose={() => undefined} onDone={() => undefined} />)
    await send(zip())
    expect(await screen.findByRole('alert')).toHaveTextContent('File is too big')
  })

  it('refuses before sending a file over the server\'s limit or not a zip', async () => {
    answer(200, {})
    renderWithClient(<UploadCourseDialog maxBytes={MAX_BYTES} onClose={() => undefined} onDone={() => undefined} />)
    await userEvent.upload(screen.getByLabelText('Choose a file'), zip('big.zip', MAX_BYTES + 1))
    expect(screen.getByRole('alert')).toHaveTextContent('File is too big')
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled()
    // The input takes .zip files only; a file dropped on it anyway is refused here.
    await userEvent.upload(screen.getByLabelText('Choose a file'), zip('notes.pdf'), { applyAccept: false })
    expect(screen.getByRole('alert')).toHaveTextContent('Wrong type file')
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled()
    expect(FakeUpload.sent).toEqual([])
  })

  it('leaves a failure to reach the server to the error dialog', async () => {
    answer(200, {})
    vi.stubGlobal(
      'XMLHttpRequest',
      class extends FakeUpload {
        send() {
          setTimeout(() => this.onerror?.(), 10)
        }
      },
    )
    renderWithClient(<UploadCourseDialog maxBytes={MAX_BYTES} onClose={() => undefined} onDone={() => undefined} />)
    await send(zip())
    expect(await screen.findByRole('dialog', { name: 'An error occured' })).toHaveTextContent('Error: uploadFailed')
    // Behind it, the upload dialog is ready to send again.
    await waitFor(() => expect(screen.queryByRole('progressbar', { hidden: true })).not.toBeInTheDocument())
    expect(screen.getByRole('button', { name: 'Import', hidden: true })).toBeEnabled()
  })
})
