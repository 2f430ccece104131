import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from './useDebouncedValue'

describe('useDebouncedValue', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('gives the value once it has stopped changing for the debounce, not at every change', () => {
    const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value), { initialProps: { value: '' } })
    for (const typed of ['n', 'na', 'nam', 'name']) {
      rerender({ value: typed })
      act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1))
      expect(result.current).toBe('')
    }
    act(() => vi.advanceTimersByTime(1))
    expect(result.current).toBe('name')
  })

  it('waits the delay it is given', () => {
    const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value, 100), { initialProps: { value: 1 } })
    rerender({ value: 2 })
    act(() => vi.advanceTimersByTime(99))
    expect(result.current).toBe(1)
    act(() => vi.advanceTimersByTime(1))
    expect(result.current).toBe(2)
  })
})
