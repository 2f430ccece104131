import { describe, expect, it } from 'vitest'
import { mapItemLabel, mapItemSource } from '../../components/lists/mapItemSource'
import { fakeServer, json, sentRequests } from '../../test/server'
import { LYON, MAP_ITEMS, USINAGE } from './listTestServer'

const SEARCH = 'GET /backend/api/v2/mapping/items/search'
const NAMES = 'POST /backend/api/v2/mapping/items/names'

describe('map item labels', () => {
  it('name where the item sits below its site, or the site of a cartography', () => {
    expect(mapItemLabel({ ...LYON, context: [] })).toBe('Usine de Lyon')
    expect(mapItemLabel({ ...USINAGE, context: [LYON] })).toBe("Atelier d'usinage (Usine de Lyon)")
    expect(mapItemLabel({ id: 12, code: 'OPR', name: 'Opérateur régleur', type: 'function', context: [LYON, USINAGE] })).toBe(
      "Opérateur régleur (Atelier d'usinage)",
    )
    const usinage = { id: 21, code: 'A1', name: 'Usinage', type: 'activity' } as const
    expect(mapItemLabel({ id: 22, code: 'A11', name: 'Tournage', type: 'activity', context: [LYON, USINAGE, usinage] })).toBe(
      "Tournage (Atelier d'usinage › Usinage)",
    )
  })
})

describe('map item sources', () => {
  it('search the server for items of their types', async () => {
    const fetchMock = fakeServer({ [SEARCH]: () => json(MAP_ITEMS.slice(3)) })
    const options = await mapItemSource(['function', 'activity']).search('ré')
    expect(options).toEqual([
      { id: 12, label: "Opérateur régleur (Atelier d'usinage)" },
      { id: 20, label: "Réception matière (Atelier d'usinage)" },
    ])
    const query = new URL(sentRequests(fetchMock, SEARCH)[0].url).searchParams
    expect([query.get('name'), query.get('types')]).toEqual(['ré', 'function,activity'])
  })

  it('name chosen ids through the server, and ask nothing for codes alone', async () => {
    const fetchMock = fakeServer({ [NAMES]: () => json([MAP_ITEMS[1]]) })
    const source = mapItemSource(['cartography'])
    expect(await source.labels(['USI'])).toEqual([])
    expect(sentRequests(fetchMock, NAMES)).toHaveLength(0)
    expect(await source.labels([2, 'USI', 99])).toEqual([{ id: 2, label: "Atelier d'usinage (Usine de Lyon)" }])
    expect(await sentRequests(fetchMock, NAMES)[0].json()).toEqual([2, 99])
  })
})
