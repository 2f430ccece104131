import type { Language } from '../i18n'

export type Texts = Record<string, unknown>

/** Every text file, eagerly: `{ '../i18n/fr/core.json': {...}, '../i18n/fr/subjects.json': {...}, ... }`. */
const FILES = import.meta.glob<Texts>('../i18n/*/*.json', { eager: true, import: 'default' })

/** A language's text files by name (`core`, then one per area), each a set of whole top-level groups. */
export function textFiles(language: Language): Record<string, Texts> {
  return Object.fromEntries(
    Object.entries(FILES)
      .filter(([path]) => path.split('/').at(-2) === language)
      // A copy: i18next merges texts into the objects it is given.
      .map(([path, texts]) => [path.split('/').at(-1)?.replace(/\.json$/, '') ?? path, structuredClone(texts)]),
  )
}

/** A language's whole catalogue: its core and every area merged, as the application holds it after every page. */
export function catalogue(language: Language): Texts {
  return Object.assign({}, ...Object.values(textFiles(language))) as Texts
}

export const catalogues: Record<Language, Texts> = { fr: catalogue('fr'), en: catalogue('en') }
