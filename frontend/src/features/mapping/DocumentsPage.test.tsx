import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ForbiddenPage } from '../../components/ForbiddenPage'
import { storeToken } from '../../lib/session'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import type { SiteDocument } from './api'
import { DocumentsPage } from './DocumentsPage'

const API = '/backend/api/v2'
const LIST = `GET ${API}/site/1/documents`
const GENERATE = `POST ${API}/site/1/documents/duerp`

const version = (n: number, language: 'fr' | 'en' = 'fr'): SiteDocument => ({
  id: 10 + n,
  kind: 'duerp',
  version: n,
  language,
  createdAt: '2026-11-30T09:15:00Z',
  createdBy: 'Paule Prévention',
  workUnits: 4,
  risks: 12,
  actions: 3,
  pdf: { url: `${API}/site/1/documents/${10 + n}/pdf`, sha256: `${n}`.repeat(64), size: 4000 },
  xlsx: { url: `${API}/site/1/documents/${10 + n}/xlsx`, sha256: `a${n}`.repeat(32), size: 900 },
})

const page = (documents: SiteDocument[], generate: boolean) => ({
  site: { id: 1, code: 'USN', name: 'Usine de Nantes' },
  documents,
  can: { generate },
})

const show = () =>
  renderRoutes(
    [
      { path: 'site/:siteId/documents', element: <DocumentsPage /> },
      { path: 'forbidden', Component: ForbiddenPage },
    ],
    '/spotv2/site/1/documents',
  )

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('DocumentsPage', () => {
  it('lists every version with its counts, hashes and files; a reader cannot generate', async () => {
    storeToken('token')
    fakeServer({ [LIST]: () => json(page([version(2, 'en'), version(1)], false)) })
    show()
    const versions = await screen.findByRole('list', { name: 'Versions' })
    const items = within(versions).getAllByRole('listitem')
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual(['Version 2', 'Version 1'])
    expect(items[0]).toHaveTextContent('Generated on 2026-11-30 09:15 by Paule Prévention · In English')
    expect(items[0]).toHaveTextContent('4 work units, 12 risks, 3 actions in progress')
    expect(items[0]).toHaveTextContent(`SHA-256 fingerprint of the PDF: ${'2'.repeat(64)}`)
    expect(within(items[1]).getByRole('button', { name: 'Download the Excel workbook of version 1' })).toBeVisible()
    expect(screen.queryByRole('button', { name: 'Generate a new version' })).toBeNull()
  })

  it('generates a version in the language chosen and lists it', async () => {
    storeToken('token')
    let documents: SiteDocument[] = []
    const fetchMock = fakeServer({
      [LIST]: () => json(page(documents, true)),
      [GENERATE]: () => {
        documents = [version(1, 'fr')]
        return json(documents[0], 201)
      },
    })
    show()
    expect(await screen.findByText('No version has been generated yet.')).toBeVisible()
    await userEvent.click(screen.getByRole('combobox', { name: 'Language of the document' }))
    await userEvent.click(screen.getByRole('option', { name: 'French' }))
    await userEvent.click(screen.getByRole('button', { name: 'Generate a new version' }))
    expect(await screen.findByText('Version 1 generated')).toBeVisible()
    expect(await sentRequests(fetchMock, GENERATE)[0].json()).toEqual({ language: 'fr' })
    expect(await screen.findByRole('heading', { name: 'Version 1' })).toBeVisible()
  })

  it("downloads a version's file under the server's name", async () => {
    storeToken('token')
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:file')
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
    const saved: string[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download)
    })
    fakeServer({
      [LIST]: () => json(page([version(1)], false)),
      [`GET ${API}/site/1/documents/11/pdf`]: () =>
        new Response('%PDF', { headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="duerp-USN-v1.pdf"' } }),
    })
    show()
    await userEvent.click(await screen.findByRole('button', { name: 'Download the PDF of version 1' }))
    await waitFor(() => expect(saved).toEqual(['duerp-USN-v1.pdf']))
  })

  it('shows Forbidden when the site is not wholly in view', async () => {
    storeToken('token')
    fakeServer({ [LIST]: () => errorBody(403, 'Forbidden', 'Insufficient rights to view') })
    const { router } = show()
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/forbidden'))
  })
})
