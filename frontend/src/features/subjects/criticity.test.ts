import { describe, expect, it } from 'vitest'
import i18n from '../../i18n'
import { frequencyTextKey, gravityTextKey, LEVEL_COLOURS, levelTextKey, RATING_LEVELS } from './criticity'

describe('criticity', () => {
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
