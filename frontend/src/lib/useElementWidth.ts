import { useCallback, useState } from 'react'

/**
 * A callback ref and the width of the element it is set on, followed as the element is resized
 * (undefined until measured, and where the browser has no ResizeObserver).
 */
export function useElementWidth<E extends Element>(): [(element: E | null) => (() => void) | undefined, number | undefined] {
  const [width, setWidth] = useState<number>()
  const ref = useCallback((element: E | null) => {
    if (!element || typeof ResizeObserver === 'undefined') return undefined
    const observer = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width))
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  return [ref, width]
}
