import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { fakeServer, json, sentRequests } from '../../test/server'
import { courseItemNamesQuery } from './api'

const NAMES = 'POST /backend/api/v2/lms/items/names'

describe('the names of course elements', () => {
  it('are asked by id, the server leaving out what was removed', async () => {
    const server = fakeServer({ [NAMES]: () => json([{ id: 12, type: 'quiz', name: 'Quiz final', courseId: 3, courseTitle: 'Consignation' }]) })
    const names = await new QueryClient().fetchQuery(courseItemNamesQuery([12, 40]))
    expect(names).toEqual([{ id: 12, type: 'quiz', name: 'Quiz final', courseId: 3, courseTitle: 'Consignation' }])
    const [sent] = sentRequests(server, NAMES)
    expect(await sent?.json()).toEqual([12, 40])
  })

  it('of no element ask nothing', async () => {
    const server = fakeServer({})
    expect(await new QueryClient().fetchQuery(courseItemNamesQuery([]))).toEqual([])
    expect(server).not.toHaveBeenCalled()
  })
})
