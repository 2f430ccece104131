import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { storeToken } from '../../lib/session'
import { renderWithClient } from '../../test/render'
import { fakeServer, sentRequests } from '../../test/server'
import { QrSheetButton } from './QrSheetButton'

const SHEET = 'GET /backend/api/v2/cartography/3/labels'

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('QrSheetButton', () => {
  it("downloads the cartography's sheet of QR code labels in the current language", async () => {
    storeToken('token')
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:sheet')
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
    const saved: string[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download)
    })
    const fetchMock = fakeServer({
      [SHEET]: () => new Response('%PDF', { headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="qr-codes-3.pdf"' } }),
    })
    renderWithClient(<QrSheetButton cartographyId={3} />)
    await userEvent.click(screen.getByRole('button', { name: 'QR codes (PDF)' }))
    await waitFor(() => expect(saved).toEqual(['qr-codes-3.pdf']))
    expect(sentRequests(fetchMock, SHEET)[0].headers.get('Accept-Language')).toBe('en')
  })
})
