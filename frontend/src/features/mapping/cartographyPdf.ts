import boldFontUrl from 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf?url'
import regularFontUrl from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf?url'
import { jsPDF } from 'jspdf'
import type { ActivityNode, Cartography } from './api'
import { activityPages, COLUMNS_PER_PAGE, columnLines, type ExportedSubject } from './pdfLayout'

/**
 * DejaVu Sans, regular and bold, as jsPDF takes a TrueType file: a string of its bytes. The PDF's
 * standard fonts know Latin-1 only; DejaVu Sans writes names in any European script (Łukasz, Ωμέγα,
 * Юрий) and the signs of measures and steps (≥, ±, →). Embedded, and written as glyph ids (Identity-H).
 */
export interface PdfFonts {
  regular: string
  bold: string
}

const FONT = 'DejaVuSans'

/** Fetches the fonts, files of the build that no script holds: they load when a PDF is made, not with the page. */
export async function loadPdfFonts(fetchFile: (url: string) => Promise<Response> = fetch): Promise<PdfFonts> {
  const [regular, bold] = await Promise.all(
    [regularFontUrl, boldFontUrl].map(async (url) => {
      const response = await fetchFile(url)
      if (!response.ok) throw new Error(`${url}: ${response.status}`)
      return byteString(new Uint8Array(await response.arrayBuffer()))
    }),
  )
  return { regular, bold }
}

function byteString(bytes: Uint8Array): string {
  const chunks: string[] = []
  // In slices: a spread of the whole file would pass more arguments than a call takes.
  for (let start = 0; start < bytes.length; start += 0x8000) chunks.push(String.fromCharCode(...bytes.subarray(start, start + 0x8000)))
  return chunks.join('')
}

function registerFonts(doc: jsPDF, fonts: PdfFonts): void {
  doc.addFileToVFS('DejaVuSans.ttf', fonts.regular)
  doc.addFont('DejaVuSans.ttf', FONT, 'normal')
  doc.addFileToVFS('DejaVuSans-Bold.ttf', fonts.bold)
  doc.addFont('DejaVuSans-Bold.ttf', FONT, 'bold')
}

export interface PdfTexts {
  title: string
  /** Printed at the top right of every page, e.g. the export date. */
  subtitle: string
  subjectCount: (count: number) => string
  noSubject: string
  more: (count: number) => string
  page: (page: number, pages: number) => string
}

const MARGIN = 14
const GUTTER = 10
const HEADER_HEIGHT = 16
const LINE_HEIGHT = 5.2
const INDENT = 5
const PRIMARY: [number, number, number] = [0, 116, 200]
const MUTED: [number, number, number] = [102, 102, 102]

function header(doc: jsPDF, texts: PdfTexts, page: number, pages: number): void {
  const width = doc.internal.pageSize.getWidth()
  const height = doc.internal.pageSize.getHeight()
  doc.setFont(FONT, 'bold').setFontSize(14).setTextColor(33, 33, 33)
  doc.text(texts.title, MARGIN, MARGIN + 2)
  doc.setFont(FONT, 'normal').setFontSize(9).setTextColor(...MUTED)
  doc.text(texts.subtitle, width - MARGIN, MARGIN + 2, { align: 'right' })
  doc.text(texts.page(page, pages), width - MARGIN, height - MARGIN / 2, { align: 'right' })
  doc.setDrawColor(...PRIMARY).setLineWidth(0.6)
  doc.line(MARGIN, MARGIN + 5, width - MARGIN, MARGIN + 5)
}

function imageFormat(dataUrl: string): string {
  return dataUrl.startsWith('data:image/png') ? 'PNG' : 'JPEG'
}

function drawImagePage(doc: jsPDF, cartography: Cartography, image: string): void {
  const width = doc.internal.pageSize.getWidth() - 2 * MARGIN
  const height = doc.internal.pageSize.getHeight() - MARGIN - HEADER_HEIGHT - MARGIN
  const ratio = Math.min(width / cartography.imageWidth, height / cartography.imageHeight)
  const drawnWidth = cartography.imageWidth * ratio
  const drawnHeight = cartography.imageHeight * ratio
  const x = MARGIN + (width - drawnWidth) / 2
  const y = MARGIN + HEADER_HEIGHT + (height - drawnHeight) / 2
  doc.addImage(image, imageFormat(image), x, y, drawnWidth, drawnHeight, undefined, 'FAST')
  doc.setDrawColor(200, 200, 200).setLineWidth(0.2)
  doc.rect(x, y, drawnWidth, drawnHeight)
}

function drawColumn(doc: jsPDF, activity: ActivityNode, subjects: ExportedSubject[], texts: PdfTexts, x: number, width: number): void {
  const top = MARGIN + HEADER_HEIGHT
  const bottom = doc.internal.pageSize.getHeight() - MARGIN - LINE_HEIGHT
  doc.setFillColor(...PRIMARY).roundedRect(x, top, width, 11, 1.5, 1.5, 'F')
  doc.setFont(FONT, 'bold').setFontSize(11).setTextColor(255, 255, 255)
  doc.text(doc.splitTextToSize(activity.name, width - 6)[0] as string, x + 3, top + 7.2)
  doc.setFont(FONT, 'normal').setFontSize(9).setTextColor(...MUTED)
  doc.text(texts.subjectCount(activity.subjectsCount), x, top + 17)

  const lines = columnLines(activity, subjects)
  let y = top + 24
  if (lines.length === 0) {
    doc.text(texts.noSubject, x, y)
    return
  }
  for (const [index, line] of lines.entries()) {
    const indent = line.depth * INDENT + (line.kind === 'subject' ? INDENT : 0)
    const bullet = line.kind === 'subject' ? '\u2022 ' : ''
    const wrapped = doc.splitTextToSize(bullet + line.text, width - indent) as string[]
    const remainingSubjects = lines.slice(index).filter((rest) => rest.kind === 'subject').length
    if (y + wrapped.length * LINE_HEIGHT > bottom) {
      if (remainingSubjects > 0) {
        doc.setFont(FONT, 'normal').setFontSize(9).setTextColor(...MUTED)
        doc.text(texts.more(remainingSubjects), x, y)
      }
      return
    }
    if (line.kind === 'activity') doc.setFont(FONT, 'bold').setFontSize(10).setTextColor(0, 113, 147)
    else doc.setFont(FONT, 'normal').setFontSize(9.5).setTextColor(33, 33, 33)
    doc.text(wrapped, x + indent, y)
    y += wrapped.length * LINE_HEIGHT + (line.kind === 'activity' ? 0.8 : 0)
  }
}

/** The cartography as a PDF: a page with its image, then pages of two activity columns. */
export function buildCartographyPdf(cartography: Cartography, image: string, subjects: ExportedSubject[], texts: PdfTexts, fonts: PdfFonts): jsPDF {
  // Only the fonts used are written: DejaVu Sans, not the 14 standard ones jsPDF lists by default.
  const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: 'a4', compress: true, putOnlyUsedFonts: true })
  registerFonts(doc, fonts)
  doc.setProperties({ title: texts.title })
  const pages = activityPages(cartography.activities)
  const total = 1 + pages.length
  header(doc, texts, 1, total)
  drawImagePage(doc, cartography, image)
  const columnWidth = (doc.internal.pageSize.getWidth() - 2 * MARGIN - GUTTER) / COLUMNS_PER_PAGE
  pages.forEach((activities, index) => {
    doc.addPage()
    header(doc, texts, index + 2, total)
    activities.forEach((activity, column) =>
      drawColumn(doc, activity, subjects, texts, MARGIN + column * (columnWidth + GUTTER), columnWidth),
    )
  })
  return doc
}
