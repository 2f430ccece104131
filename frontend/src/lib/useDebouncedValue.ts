import { useEffect, useState } from 'react'

/** The specification's debounce of searches and autocompletes (part 1, §9). */
export const SEARCH_DEBOUNCE_MS = 500

export function useDebouncedValue<T>(value: T, delay = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delay)
    return () => window.clearTimeout(timer)
  }, [value, delay])
  return debounced
}
