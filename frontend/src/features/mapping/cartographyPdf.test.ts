import { describe, expect, it } from 'vitest'
import type { Cartography } from './api'
import { buildCartographyPdf } from './cartographyPdf'

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

describe('cartography PDF', () => {
  it('has the image page, then one page per two activities, up to the first four', () => {
    expect(buildCartographyPdf(cartography(6), IMAGE, [], texts).getNumberOfPages()).toBe(3)
    expect(buildCartographyPdf(cartography(3), IMAGE, [], texts).getNumberOfPages()).toBe(3)
    expect(buildCartographyPdf(cartography(2), IMAGE, [], texts).getNumberOfPages()).toBe(2)
    expect(buildCartographyPdf(cartography(0), IMAGE, [], texts).getNumberOfPages()).toBe(1)
  })

  it('is landscape A4', () => {
    const size = buildCartographyPdf(cartography(1), IMAGE, [{ name: 'Sujet', activityId: 10 }], texts).internal.pageSize
    expect(Math.round(size.getWidth())).toBe(297)
    expect(Math.round(size.getHeight())).toBe(210)
  })
})
