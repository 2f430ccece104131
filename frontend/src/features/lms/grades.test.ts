import { describe, expect, it } from 'vitest'
import { formatGrade, formatPassMark } from './grades'

describe('grades out of 10', () => {
  it('always show one decimal, written as the language writes numbers', () => {
    expect(formatGrade(10, 'en')).toBe('10.0')
    expect(formatGrade(7.5, 'fr')).toBe('7,5')
    expect(formatGrade(0, 'fr')).toBe('0,0')
  })

  it('give a pass mark from a mastery score, without a useless decimal', () => {
    expect(formatPassMark(0.8, 'en')).toBe('8')
    expect(formatPassMark(0.75, 'fr')).toBe('7,5')
    expect(formatPassMark(1, 'fr')).toBe('10')
  })
})
