import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { CLICK_TOLERANCE_PX, isClick, usePanSafeClick } from './zoneClick'

describe('isClick', () => {
  it('counts a press released where it started', () => {
    expect(isClick({ x: 100, y: 100 }, { x: 100, y: 100 })).toBe(true)
  })

  it('counts a pointer that moved less than 10 px', () => {
    expect(isClick({ x: 100, y: 100 }, { x: 106, y: 107 })).toBe(true)
    expect(isClick({ x: 100, y: 100 }, { x: 109.9, y: 100 })).toBe(true)
  })

  it('ignores a pointer that moved 10 px or more, in any direction', () => {
    expect(CLICK_TOLERANCE_PX).toBe(10)
    expect(isClick({ x: 100, y: 100 }, { x: 110, y: 100 })).toBe(false)
    expect(isClick({ x: 100, y: 100 }, { x: 92, y: 93 })).toBe(false)
    expect(isClick({ x: 100, y: 100 }, { x: 100, y: 60 })).toBe(false)
  })

  it('ignores a release without a press on the zone', () => {
    expect(isClick(undefined, { x: 0, y: 0 })).toBe(false)
  })
})

function ZoneLink() {
  return <a href="#zone" aria-label="zone" {...usePanSafeClick()} />
}

/** True when the click would follow the link (fireEvent answers false once a handler prevented it). */
function follows(link: HTMLElement, from: { clientX: number; clientY: number } | undefined, to: { clientX: number; clientY: number; detail?: number }) {
  if (from) fireEvent.pointerDown(link, from)
  return fireEvent.click(link, { detail: 1, ...to })
}

describe('usePanSafeClick', () => {
  it('follows the link after a still press and not after a pan', () => {
    render(<ZoneLink />)
    const link = screen.getByRole('link', { name: 'zone' })
    expect(follows(link, { clientX: 50, clientY: 50 }, { clientX: 55, clientY: 52 })).toBe(true)
    expect(follows(link, { clientX: 50, clientY: 50 }, { clientX: 80, clientY: 50 })).toBe(false)
  })

  it('follows the link when activated from the keyboard', () => {
    render(<ZoneLink />)
    expect(follows(screen.getByRole('link', { name: 'zone' }), undefined, { clientX: 0, clientY: 0, detail: 0 })).toBe(true)
  })
})
