import { type MouseEvent, type PointerEvent, useRef } from 'react'

/** A press on a zone counts as a click only if the pointer moved less than this (spec 1 §2); more is a pan. */
export const CLICK_TOLERANCE_PX = 10

export interface Point {
  x: number
  y: number
}

export function isClick(down: Point | undefined, up: Point): boolean {
  if (down === undefined) return false
  return Math.hypot(up.x - down.x, up.y - down.y) < CLICK_TOLERANCE_PX
}

/**
 * Handlers for a link drawn on the pannable map: a press that turned into a pan does not follow
 * the link. Keyboard activation (no pointer, detail 0) always does.
 */
export function usePanSafeClick() {
  const down = useRef<Point | undefined>(undefined)
  return {
    onPointerDown: (event: PointerEvent) => {
      down.current = { x: event.clientX, y: event.clientY }
    },
    onClick: (event: MouseEvent) => {
      const keyboard = event.detail === 0
      if (!keyboard && !isClick(down.current, { x: event.clientX, y: event.clientY })) event.preventDefault()
      down.current = undefined
    },
  }
}
