import { describe, expect, it } from 'vitest'
import { fakeServer, json, sentRequests } from '../../test/server'
import { SUBJECT_FILTER_SOURCES } from './listSources'

const SEARCH = 'GET /backend/api/v2/mapping/items/search'
const USERS = 'GET /backend/api/v2/user/search'

describe('subject filter sources', () => {
  it('search the map items of each map field on the server', async () => {
    const fetchMock = fakeServer({ [SEARCH]: () => json([]) })
    for (const field of ['location', 'function', 'activity']) await SUBJECT_FILTER_SOURCES[field]?.search('a')
    const types = sentRequests(fetchMock, SEARCH).map((request) => new URL(request.url).searchParams.get('types'))
    expect(types).toEqual(['site,cartography,function,activity', 'function', 'activity'])
  })

  it('search users for the people fields', async () => {
    const fetchMock = fakeServer({ [USERS]: () => json([{ id: 3, displayName: 'Alice Martin' }]) })
    expect(await SUBJECT_FILTER_SOURCES.created_by?.search('ali')).toEqual([{ id: 3, label: 'Alice Martin' }])
    expect(sentRequests(fetchMock, SEARCH)).toHaveLength(0)
  })
})
