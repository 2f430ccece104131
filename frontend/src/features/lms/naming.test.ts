import { describe, expect, it } from 'vitest'
import { LANGUAGES } from '../../i18n'
import { catalogues } from '../../test/catalogues'

const at = (texts: object, key: string): unknown => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], texts)

describe('the name of the learning platform', () => {
  it.each(LANGUAGES)('is the same on every screen (%s)', (language) => {
    const texts = catalogues[language]
    const names = ['nav.lms', 'lms.pageTitle', 'modules.kinds.lms', 'trainingPath.kinds.lms'].map((key) => at(texts, key))
    expect(new Set(names)).toEqual(new Set([names[0]]))
  })
})
