import { act, renderHook } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useNow } from './useNow'

afterEach(() => {
  vi.useRealTimers()
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
})
