import { afterEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../api/client'
import { ApiError } from '../../api/errors'
import { fakeServer } from '../../test/server'
import { dispositionName, download, saveFile } from './download'

const API = '/backend/api/v2'

/** Watches the anchors the helper clicks: their name and the blob behind their address. */
function watchDownloads() {
  const blobs = new Map<string, Blob>()
  let count = 0
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:download-${++count}`
    blobs.set(url, blob as Blob)
    return url
  })
  const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
  const saved: { name: string; blob: Blob | undefined; attached: boolean }[] = []
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href), attached: document.body.contains(this) })
  })
  return { saved, revoke }
}

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('dispositionName', () => {
  it.each([
    ['attachment; filename="training-paths.xlsx"', 'training-paths.xlsx'],
    ['attachment; filename=audit-groux.zip', 'audit-groux.zip'],
    ['attachment; filename="a \\"quoted\\" name.zip"', 'a "quoted" name.zip'],
    [`attachment; filename="audit-x.zip"; filename*=UTF-8''audit-h%C3%A9l%C3%A8ne.zip`, 'audit-hélène.zip'],
    [`attachment; filename*=UTF-8''%E0%A4%A.zip; filename="plain.zip"`, 'plain.zip'],
  ])('reads %s', (header, name) => {
    expect(dispositionName(header, 'fallback.bin')).toBe(name)
  })

  it.each([[null], ['attachment'], ['inline; filename=""']])('falls back without a name (%s)', (header) => {
    expect(dispositionName(header, 'fallback.bin')).toBe('fallback.bin')
  })
})

describe('saveFile', () => {
  it('clicks a link to the blob named as asked, then lets it go', () => {
    const { saved, revoke } = watchDownloads()
    const blob = new Blob(['content'])
    saveFile(blob, 'report.xlsx')
    expect(saved).toEqual([{ name: 'report.xlsx', blob, attached: true }])
    expect(revoke).toHaveBeenCalledWith('blob:download-1')
    expect(document.querySelector('a')).toBeNull()
  })
})

/** A real call of the API's client answered as a blob (the contributions export, whatever its body). */
const exportCall = () =>
  api.POST('/backend/api/v2/history/contributions/export', {
    body: { fromYear: 2026, count: 1 } as never,
    parseAs: 'blob',
  })
const EXPORT = `POST ${API}/history/contributions/export`

describe('download', () => {
  it("saves the server's file under the name it gave", async () => {
    const { saved } = watchDownloads()
    fakeServer({
      [EXPORT]: () =>
        new Response('zip bytes', { headers: { 'Content-Type': 'application/zip', 'Content-Disposition': 'attachment; filename="audit-groux.zip"' } }),
    })
    expect(await download(exportCall(), 'audit.zip')).toBe('audit-groux.zip')
    expect(saved).toHaveLength(1)
    expect(saved[0].name).toBe('audit-groux.zip')
    expect(await saved[0].blob?.text()).toBe('zip bytes')
  })

  it('uses the fallback name when the server gives none', async () => {
    const { saved } = watchDownloads()
    fakeServer({ [EXPORT]: () => new Response('xlsx bytes') })
    expect(await download(exportCall(), 'contributions.xlsx')).toBe('contributions.xlsx')
    expect(saved.map((file) => file.name)).toEqual(['contributions.xlsx'])
  })

  it('saves nothing when the server refuses, and lets the error through', async () => {
    const { saved } = watchDownloads()
    fakeServer({})
    await expect(download(exportCall(), 'audit.zip')).rejects.toBeInstanceOf(ApiError)
    expect(saved).toEqual([])
  })
})
