import { describe, expect, it } from 'vitest'
import i18n from '../../i18n'
import { criticityLevel, criticityScore, frequencyTextKey, gravityTextKey, LEVEL_COLOURS, levelTextKey, RATING_LEVELS } from './criticity'

describe('criticity', () => {
  it('is undefined while frequency or gravity is not defined', () => {
    expect(criticityScore(0, 5)).toBeUndefined()
    expect(criticityScore(4, 0)).toBeUndefined()
    expect(criticityLevel(undefined)).toBeUndefined()
    expect(criticityLevel(null)).toBeUndefined()
  })

  it('scores frequency times gravity out of 100', () => {
    expect(criticityScore(1, 1)).toBe(4)
    expect(criticityScore(3, 5)).toBe(60)
    expect(criticityScore(5, 5)).toBe(100)
  })

  it('bands scores below 33 low, above 66 high, otherwise medium', () => {
    expect(criticityLevel(0)).toBe('low')
    expect(criticityLevel(32)).toBe('low')
    expect(criticityLevel(33)).toBe('medium')
    expect(criticityLevel(66)).toBe('medium')
    expect(criticityLevel(67)).toBe('high')
    expect(criticityLevel(criticityScore(2, 4))).toBe('low')
    expect(criticityLevel(criticityScore(3, 3))).toBe('medium')
    expect(criticityLevel(criticityScore(4, 5))).toBe('high')
  })

  it('colours the bands green, amber and red', () => {
    expect(LEVEL_COLOURS).toEqual({ low: 'success', medium: 'warning', high: 'error' })
  })

  it('has a frequency and a gravity text for every level 0 to 5, in both languages', async () => {
    expect(RATING_LEVELS).toEqual([0, 1, 2, 3, 4, 5])
    for (const language of ['fr', 'en']) {
      await i18n.changeLanguage(language)
      for (const textKey of [frequencyTextKey, gravityTextKey]) {
        const texts = RATING_LEVELS.map((level) => i18n.t(textKey(level)))
        texts.forEach((text) => expect(text).not.toMatch(/^subjects\./))
        expect(new Set(texts).size).toBe(texts.length)
      }
    }
    expect(i18n.t(frequencyTextKey(0))).toBe('Not defined')
    expect(i18n.t(levelTextKey('high'))).toBe('High')
    expect(i18n.t(levelTextKey(undefined))).toBe('Not rated')
  })
})
