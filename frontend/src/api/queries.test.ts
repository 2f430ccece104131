import { afterEach, describe, expect, it, vi } from 'vitest'
import { formatDateTime, setOrganizationTimeZone } from '../lib/dates'
import { fakeServer, json } from '../test/server'
import { organizationInfoQuery } from './queries'
import { createQueryClient } from './queryClient'

afterEach(() => {
  vi.unstubAllEnvs()
  setOrganizationTimeZone(undefined)
})

describe("the organisation's information", () => {
  it('sets the zone every time on screen is shown in', async () => {
    vi.stubEnv('TZ', 'America/New_York')
    fakeServer({
      'GET /backend/api/v2/organization/info': () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null, timeZone: 'Europe/Paris' }),
    })
    expect(formatDateTime('2026-11-28T12:06:00Z', 'en')).toBe('2026-11-28 07:06')
    await createQueryClient().fetchQuery(organizationInfoQuery)
    expect(formatDateTime('2026-11-28T12:06:00Z', 'en')).toBe('2026-11-28 13:06 (GMT+1)')
  })
})
