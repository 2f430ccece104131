import type { CriticityLevel } from './api'

/** Frequency and gravity run from 0 ('not defined') to 5 (spec 1 §4). */
export const RATING_LEVELS = [0, 1, 2, 3, 4, 5] as const

/** The theme colour of each band. */
export const LEVEL_COLOURS = { low: 'success', medium: 'warning', high: 'error' } as const satisfies Record<CriticityLevel, string>

export const frequencyTextKey = (level: number) => `subjects.criticity.frequencies.${level}`
export const gravityTextKey = (level: number) => `subjects.criticity.gravities.${level}`
export const levelTextKey = (level: CriticityLevel | null | undefined) => `subjects.criticity.levels.${level ?? 'none'}`
