import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { storeToken } from '../../lib/session'
import { renderWithClient } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { QrCodeButton } from './QrCodeButton'
import type { QrLabel } from './qrLabel'

const API = '/backend/api/v2'
const LABEL = `GET ${API}/label/function/12`
const PDF = `GET ${API}/label/function/12/pdf`
const PNG = 'data:image/png;base64,iVBORw0KGgo='

const label: QrLabel = {
  itemType: 'function',
  itemId: 12,
  name: 'Opérateur régleur',
  context: ['Usine de Lyon', "Atelier d'usinage"],
  address: 'https://spot.example.com/spotv2/function/12',
  image: PNG,
}

/** The names of the files the browser was asked to save. */
function watchSaves() {
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:label')
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
  const saved: string[] = []
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download)
  })
  return saved
}

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('QrCodeButton', () => {
  it('reads the label only once the dialog is opened, and shows the code, the name, the context and the address', async () => {
    storeToken('token')
    const fetchMock = fakeServer({ [LABEL]: () => json(label) })
    renderWithClient(<QrCodeButton itemType="function" itemId={12} />)
    const open = await screen.findByRole('button', { name: 'QR code' })
    expect(sentRequests(fetchMock, LABEL)).toHaveLength(0)
    await userEvent.click(open)
    const dialog = await screen.findByRole('dialog', { name: 'Workstation QR code' })
    const image = await within(dialog).findByRole('img', { name: 'QR code of the page “Opérateur régleur”' })
    expect(image).toHaveAttribute('src', PNG)
    expect(within(dialog).getByText('Opérateur régleur')).toBeInTheDocument()
    expect(within(dialog).getByText("Usine de Lyon › Atelier d'usinage")).toBeInTheDocument()
    expect(within(dialog).getByText('https://spot.example.com/spotv2/function/12')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('prints the label alone: its PDF in the current language, saved under the name the server gave', async () => {
    storeToken('token')
    const saved = watchSaves()
    const fetchMock = fakeServer({
      [LABEL]: () => json(label),
      [PDF]: () =>
        new Response('%PDF', { headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="qr-code-function-12.pdf"' } }),
    })
    renderWithClient(<QrCodeButton itemType="function" itemId={12} />)
    await userEvent.click(await screen.findByRole('button', { name: 'QR code' }))
    const dialog = await screen.findByRole('dialog')
    await within(dialog).findByRole('img')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Print (PDF)' }))
    await waitFor(() => expect(saved).toEqual(['qr-code-function-12.pdf']))
    const [request] = sentRequests(fetchMock, PDF)
    expect(request.headers.get('Accept-Language')).toBe('en')
    expect(request.headers.get('x-access-token')).toBe('token')
  })

  it('says so in the dialog when the label cannot be read', async () => {
    storeToken('token')
    fakeServer({ [LABEL]: () => errorBody(403, 'Forbidden', 'Insufficient rights to view') })
    renderWithClient(<QrCodeButton itemType="function" itemId={12} />)
    await userEvent.click(await screen.findByRole('button', { name: 'QR code' }))
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByText('The QR code could not be read.')).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Print (PDF)' })).toBeDisabled()
  })
})
