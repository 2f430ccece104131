import { describe, expect, it } from 'vitest'
import type { Site } from './api'
import { initiallyOpen } from './SitesPage'

const site = (id: number, cartographies: number[]): Site => ({
  id,
  code: `S${id}`,
  name: `Site ${id}`,
  cartographies: cartographies.map((cartographyId) => ({ id: cartographyId, code: `C${cartographyId}`, name: `Carto ${cartographyId}` })),
  documents: true,
})

describe('sites open at first', () => {
  it('opens the only site', () => {
    expect(initiallyOpen([site(1, [2, 3])], undefined)).toEqual([1])
  })

  it('opens none of several sites', () => {
    expect(initiallyOpen([site(1, [2]), site(4, [5])], undefined)).toEqual([])
  })

  it('opens the site of the requested cartography', () => {
    expect(initiallyOpen([site(1, [2]), site(4, [5, 6])], 6)).toEqual([4])
  })

  it('falls back to the single site for a cartography it does not hold', () => {
    expect(initiallyOpen([site(1, [2])], 99)).toEqual([1])
    expect(initiallyOpen([site(1, [2]), site(4, [5])], 99)).toEqual([])
  })
})
