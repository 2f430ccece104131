import boldFile from 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf?inline'
import regularFile from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf?inline'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Cartography } from './api'
import { buildCartographyPdf, loadPdfFonts, type PdfFonts } from './cartographyPdf'

// A 1×1 PNG.
const IMAGE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

const cartography = (activities: number) =>
  ({
    id: 2,
    code: 'USI',
    name: "Atelier d'usinage",
    site: { id: 1, code: 'LYON', name: 'Usine de Lyon' },
    imageWidth: 1600,
    imageHeight: 1000,
    activities: Array.from({ length: activities }, (_, index) => ({ id: 10 + index, code: `A${index}`, name: `Activité ${index}`, subjectsCount: 1, activities: [] })),
  }) as unknown as Cartography

const texts = {
  title: "Usine de Lyon — Atelier d'usinage",
  subtitle: '22/11/2026',
  subjectCount: (count: number) => `${count} sujets`,
  noSubject: 'Aucun sujet',
  more: (count: number) => `… et ${count} autres`,
  page: (page: number, pages: number) => `Page ${page} / ${pages}`,
}

/** The font files the build serves, here as data URLs of the same bytes. */
const FILES: Record<string, string> = { 'DejaVuSans.ttf': regularFile, 'DejaVuSans-Bold.ttf': boldFile }
const fileName = (url: string) => url.slice(url.lastIndexOf('/') + 1)
const fetchFont = (url: string) => fetch(FILES[fileName(url)] ?? 'data:,')
let fonts: PdfFonts
beforeAll(async () => {
  fonts = await loadPdfFonts(fetchFont)
})

/** The PDF's streams (content, fonts, CMaps), inflated when compressed, as strings of their bytes. */
async function streams(pdf: string): Promise<string[]> {
  const bodies = [...pdf.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)].map(([, body = '']) => body)
  return Promise.all(
    bodies.map(async (body) => {
      const bytes = Uint8Array.from(body, (char) => char.charCodeAt(0))
      try {
        const inflating = new Response(bytes).body?.pipeThrough(new DecompressionStream('deflate'))
        const inflated = new Uint8Array(await new Response(inflating).arrayBuffer())
        return Array.from(inflated, (byte) => String.fromCharCode(byte)).join('')
      } catch {
        return body
      }
    }),
  )
}

describe('cartography PDF', () => {
  it('has the image page, then one page per two activities, up to the first four', () => {
    expect(buildCartographyPdf(cartography(6), IMAGE, [], texts, fonts).getNumberOfPages()).toBe(3)
    expect(buildCartographyPdf(cartography(3), IMAGE, [], texts, fonts).getNumberOfPages()).toBe(3)
    expect(buildCartographyPdf(cartography(2), IMAGE, [], texts, fonts).getNumberOfPages()).toBe(2)
    expect(buildCartographyPdf(cartography(0), IMAGE, [], texts, fonts).getNumberOfPages()).toBe(1)
  })

  it('is landscape A4', () => {
    const size = buildCartographyPdf(cartography(1), IMAGE, [{ name: 'Sujet', activityId: 10 }], texts, fonts).internal.pageSize
    expect(Math.round(size.getWidth())).toBe(297)
    expect(Math.round(size.getHeight())).toBe(210)
  })

  it('writes names beyond Latin-1 with the embedded DejaVu Sans, as glyph ids (Identity-H)', async () => {
    const beyond = 'Łukasz ≥ Ω →'
    const activity = { id: 10, code: 'A0', name: `Contrôle ${beyond}`, subjectsCount: 1, activities: [] }
    const withNames = { ...cartography(0), name: beyond, activities: [activity] } as unknown as Cartography
    const doc = buildCartographyPdf(withNames, IMAGE, [{ name: `Sujet ${beyond}`, activityId: 10 }], { ...texts, title: `Usine — ${beyond}` }, fonts)
    const pdf = doc.output()
    // Regular and bold (two files of the family), embedded; no standard font, which prints "?" for these letters.
    expect(pdf).toMatch(/\/BaseFont \/DejaVuSans\b/)
    expect(pdf.match(/\/Encoding \/Identity-H/g)).toHaveLength(2)
    expect(pdf.match(/\/FontFile2/g)).toHaveLength(2)
    expect(pdf).not.toMatch(/\/BaseFont \/(Helvetica|Times|Courier|Symbol|ZapfDingbats)/)
    const inflated = await streams(pdf)
    // Each font's map from glyph ids back to characters names the letters written: Ł, ≥, Ω, →.
    const cmaps = inflated.filter((stream) => stream.includes('begincmap'))
    expect(cmaps).toHaveLength(2)
    for (const cmap of cmaps) {
      for (const code of ['0141', '2265', '03a9', '2192']) expect(cmap.toLowerCase()).toMatch(new RegExp(`<[0-9a-f]+> *<${code}>`))
    }
    // The pages' text is shown by glyph ids only, never as Latin-1 strings.
    const pages = inflated.filter((stream) => / Tj\b/.test(stream))
    expect(pages.length).toBeGreaterThan(0)
    for (const page of pages) {
      expect(page).not.toMatch(/\) *Tj/)
      expect(page).toMatch(/<[0-9A-Fa-f]+> *Tj/)
    }
  })

  it('fetches the font files of the build, and says which one failed', async () => {
    const asked: string[] = []
    const loaded = await loadPdfFonts((url) => {
      asked.push(fileName(url))
      return fetchFont(url)
    })
    expect(asked.sort()).toEqual(['DejaVuSans-Bold.ttf', 'DejaVuSans.ttf'])
    // The files' bytes, whole: a TrueType file starts with its version, 1.0.
    expect(loaded.regular).toBe(atob(regularFile.slice(regularFile.indexOf(',') + 1)))
    expect(loaded.bold).toBe(atob(boldFile.slice(boldFile.indexOf(',') + 1)))
    expect(loaded.regular.slice(0, 4)).toBe('\x00\x01\x00\x00')
    await expect(loadPdfFonts(() => Promise.resolve(new Response('', { status: 404 })))).rejects.toThrow(/DejaVuSans.*404/)
  })
})
