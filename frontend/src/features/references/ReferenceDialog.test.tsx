import Dialog from '@mui/material/Dialog'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithClient } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { ReferenceDialog } from './ReferenceDialog'

const SAVE = 'POST /backend/api/v2/training/references/module'
const READ = 'GET /backend/api/v2/training/references/module/SEC-01'
const DELETE = 'DELETE /backend/api/v2/training/references/module/SEC-01'

const REFERENCE = {
  code: 'SEC-01',
  label: 'Sécurité générale',
  description: 'Les bases\nde la sécurité',
  disabled: false,
  version: 3,
  usage: 0,
  can: { edit: true, delete: true },
}

function open(code: string | null, handlers: Parameters<typeof fakeServer>[0] = {}) {
  const fetchMock = fakeServer({ [READ]: () => json(REFERENCE), ...handlers })
  const onClose = vi.fn()
  renderWithClient(<ReferenceDialog type="module" code={code} onClose={onClose} />)
  return { fetchMock, onClose }
}

const textbox = (name: RegExp) => screen.getByRole('textbox', { name })

/** A click on the dimmed page around a dialog, as MUI tells it (mouse down then up on its container). */
function clickOutside() {
  const container = document.querySelector('.MuiDialog-container')
  if (!container) throw new Error('no dialog')
  fireEvent.mouseDown(container)
  fireEvent.click(container)
}

describe('the reference dialog', () => {
  it('creates a reference: the code starts empty and editable, the save sends version 0 (create only)', async () => {
    const { fetchMock, onClose } = open(null, { [SAVE]: () => json({ ...REFERENCE, code: 'CONS-02', version: 1 }) })
    expect(screen.getByRole('heading', { name: 'New module reference' })).toBeInTheDocument()
    expect(textbox(/^Code/)).toHaveValue('')
    expect(textbox(/^Code/)).not.toHaveAttribute('readonly')
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
    await userEvent.type(textbox(/^Code/), 'CONS-02')
    await userEvent.type(textbox(/^Label/), 'Consignation')
    await userEvent.type(textbox(/^Description/), 'Ligne 1{enter}Ligne 2')
    await userEvent.click(screen.getByRole('switch', { name: 'Enabled' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    const [request] = sentRequests(fetchMock, SAVE)
    expect(await request.json()).toEqual({ code: 'CONS-02', label: 'Consignation', description: 'Ligne 1\nLigne 2', disabled: true, version: 0 })
  })

  it('edits a reference: the code is read-only, the save sends the version read', async () => {
    const { fetchMock, onClose } = open('SEC-01', { [SAVE]: () => json({ ...REFERENCE, label: 'Sécurité', version: 4 }) })
    expect(await screen.findByRole('textbox', { name: /^Code/ })).toHaveValue('SEC-01')
    expect(textbox(/^Code/)).toHaveAttribute('readonly')
    expect(screen.getByText("A reference's code cannot change")).toBeInTheDocument()
    expect(textbox(/^Description/)).toHaveValue('Les bases\nde la sécurité')
    expect(screen.getByRole('switch', { name: 'Enabled' })).toBeChecked()
    await userEvent.clear(textbox(/^Label/))
    await userEvent.type(textbox(/^Label/), 'Sécurité')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    const [request] = sentRequests(fetchMock, SAVE)
    expect(await request.json()).toEqual({ code: 'SEC-01', label: 'Sécurité', description: 'Les bases\nde la sécurité', disabled: false, version: 3 })
  })

  it('is named by its title while the reference loads', async () => {
    let answer: (response: Response) => void = () => undefined
    const { fetchMock } = open('SEC-01', { [READ]: () => new Promise<Response>((resolve) => (answer = resolve)) })
    await waitFor(() => expect(sentRequests(fetchMock, READ)).toHaveLength(1))
    expect(screen.getByRole('dialog', { name: 'Module reference' })).toBeInTheDocument()
    answer(json(REFERENCE))
    expect(await screen.findByRole('textbox', { name: /^Code/ })).toHaveValue('SEC-01')
  })

  it('closes on Escape but not on a click outside', async () => {
    const { onClose } = open('SEC-01')
    await screen.findByRole('textbox', { name: /^Code/ })
    clickOutside()
    expect(onClose).not.toHaveBeenCalled()
    expect(screen.getByRole('dialog')).toBeInTheDocument()
    await userEvent.keyboard('{Escape}')
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('is told apart from a dialog that closes on a click outside', () => {
    const onClose = vi.fn()
    renderWithClient(
      <Dialog open onClose={onClose} aria-label="plain">
        {null}
      </Dialog>,
    )
    clickOutside()
    expect(onClose).toHaveBeenCalledWith(expect.anything(), 'backdropClick')
  })

  it('offers Delete only when nothing uses the reference, after a confirmation', async () => {
    let deleted = false
    const { fetchMock, onClose } = open('SEC-01', {
      [READ]: () => (deleted ? errorBody(404, 'Not Found', 'referenceNotFound') : json(REFERENCE)),
      [DELETE]: () => {
        deleted = true
        return new Response(null, { status: 204 })
      },
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }))
    const confirmation = screen.getByRole('dialog', { name: 'Delete this reference?' })
    expect(within(confirmation).getByText(/SEC-01 — Sécurité générale/)).toBeInTheDocument()
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sentRequests(fetchMock, DELETE)).toHaveLength(1)
    // The deleted reference is not read again (its 404 would be reported as an error).
    expect(sentRequests(fetchMock, READ)).toHaveLength(1)
  })

  it('hides Delete when the reference is used, and says by how many', async () => {
    open('SEC-01', { [READ]: () => json({ ...REFERENCE, usage: 2, can: { edit: true, delete: false } }) })
    expect(await screen.findByText('Used by 2 training modules')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
  })

  it('checks the general text rule before sending', async () => {
    const { fetchMock } = open(null)
    await userEvent.type(textbox(/^Code/), ' SEC')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Text may not begin or end with whitespace')).toBeInTheDocument()
    expect(screen.getByText("This field can't stay empty")).toBeInTheDocument()
    expect(screen.getByText('At least one error remains to be corrected')).toBeInTheDocument()
    expect(sentRequests(fetchMock, SAVE)).toHaveLength(0)
  })

  it("shows the server's keys on their fields and keeps what was typed", async () => {
    const { onClose } = open(null, { [SAVE]: () => errorBody(409, 'Conflict', 'alreadyExists', [{ field: 'code', code: 'alreadyExists' }]) })
    await userEvent.type(textbox(/^Code/), 'SEC-01')
    await userEvent.type(textbox(/^Label/), 'Doublon')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('This code is already used by another reference')).toBeInTheDocument()
    expect(textbox(/^Code/)).toHaveValue('SEC-01')
    expect(textbox(/^Label/)).toHaveValue('Doublon')
    expect(onClose).not.toHaveBeenCalled()
  })

  it('tells of a stale version, reads the reference again and keeps what was typed', async () => {
    let version = 3
    const { fetchMock } = open('SEC-01', {
      [READ]: () => json({ ...REFERENCE, version }),
      [SAVE]: async (request) => ((await request.clone().json()).version === 4 ? json({ ...REFERENCE, version: 5 }) : errorBody(409, 'Conflict', 'staleVersion')),
    })
    await screen.findByRole('textbox', { name: /^Code/ })
    await userEvent.clear(textbox(/^Label/))
    await userEvent.type(textbox(/^Label/), 'Mien')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText(/Someone changed this reference meanwhile/)).toBeInTheDocument()
    version = 4
    await userEvent.click(screen.getByRole('button', { name: 'Read the reference again' }))
    await waitFor(() => expect(sentRequests(fetchMock, READ)).toHaveLength(2))
    expect(textbox(/^Label/)).toHaveValue('Mien')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sentRequests(fetchMock, SAVE)).toHaveLength(2))
    expect(await sentRequests(fetchMock, SAVE)[1].json()).toMatchObject({ label: 'Mien', version: 4 })
  })
})
