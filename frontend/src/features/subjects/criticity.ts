import type { CriticityLevel } from './api'

/** Frequency and gravity run from 0 ('not defined') to 5 (spec 1 §4). */
export const RATING_LEVELS = [0, 1, 2, 3, 4, 5] as const

/** The score of a rating, 0 to 100, undefined while either scale is 'not defined'; the server computes the same. */
export function criticityScore(frequency: number, gravity: number): number | undefined {
  if (frequency === 0 || gravity === 0) return undefined
  return Math.round(((frequency * gravity) / 25) * 100)
}

/** Bands of the score: below 33 low, above 66 high, otherwise medium. */
export function criticityLevel(score: number | null | undefined): CriticityLevel | undefined {
  if (score === null || score === undefined) return undefined
  if (score < 33) return 'low'
  if (score > 66) return 'high'
  return 'medium'
}

/** The theme colour of each band. */
export const LEVEL_COLOURS = { low: 'success', medium: 'warning', high: 'error' } as const satisfies Record<CriticityLevel, string>

export const frequencyTextKey = (level: number) => `subjects.criticity.frequencies.${level}`
export const gravityTextKey = (level: number) => `subjects.criticity.gravities.${level}`
export const levelTextKey = (level: CriticityLevel | null | undefined) => `subjects.criticity.levels.${level ?? 'none'}`
