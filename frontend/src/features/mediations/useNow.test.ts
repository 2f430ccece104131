import { act, renderHook } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { setOrganizationTimeZone } from '../../lib/dates'
import { useNow } from './useNow'

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllEnvs()
  setOrganizationTimeZone(undefined)
})

describe('useNow', () => {
  it('reads the time again every 60 s, not sooner', () => {
    vi.useFakeTimers({ now: new Date(2026, 11, 1, 10, 0, 30) })
    const { result } = renderHook(() => useNow())
    expect(result.current.format('HH:mm:ss')).toBe('10:00:30')
    act(() => vi.advanceTimersByTime(59_000))
    expect(result.current.format('HH:mm:ss')).toBe('10:00:30')
    act(() => vi.advanceTimersByTime(1_000))
    expect(result.current.format('HH:mm:ss')).toBe('10:01:30')
  })

  it("reads the organisation's clocks, not the browser's", () => {
    vi.stubEnv('TZ', 'Europe/Paris')
    setOrganizationTimeZone('Pacific/Auckland')
    vi.useFakeTimers({ now: new Date('2026-03-10T12:00:00Z') })
    const { result } = renderHook(() => useNow())
    expect(result.current.format('YYYY-MM-DD HH:mm')).toBe('2026-03-11 01:00')
    act(() => vi.advanceTimersByTime(60_000))
    expect(result.current.format('YYYY-MM-DD HH:mm')).toBe('2026-03-11 01:01')
  })
})
