import dayjs from 'dayjs'
import 'dayjs/locale/en'
import 'dayjs/locale/fr'
import i18n, { type BackendModule, type ResourceKey } from 'i18next'
import { initReactI18next } from 'react-i18next'
import frCore from './fr/core.json'

export const LANGUAGES = ['fr', 'en'] as const
export type Language = (typeof LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'fr'
const STORAGE_KEY = 'spot.language'

/**
 * The areas whose texts are read with their pages, each from `<language>/<area>.json` (the name of
 * its folder under src/features). Everything else — the shell, shared components, navigation — is
 * in `<language>/core.json`. A test checks this list against the files.
 */
export const AREAS = ['dashboards', 'jobs', 'lms', 'mapping', 'mediations', 'notifications', 'paths', 'permissions', 'qualifications', 'reports', 'subjects', 'users'] as const
export type Area = (typeof AREAS)[number]

/**
 * French core, the default and the fallback, is in the initial bundle; English core is a chunk of its
 * own, read the first time it is chosen (most people never load both).
 */
const CORES: Record<Language, () => Promise<ResourceKey>> = {
  fr: () => Promise.resolve(frCore),
  en: () => import('./en/core.json').then((module) => module.default),
}

/** Every area file of every language, each a chunk of its own, read by `loadTexts`. */
const AREA_FILES = import.meta.glob<ResourceKey>(['./*/*.json', '!./*/core.json'], { import: 'default' })

const lazyCores: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read: (language, _namespace, callback) => {
    const load = CORES[language as Language] as (() => Promise<ResourceKey>) | undefined
    if (!load) {
      callback(null, {})
      return
    }
    load().then(
      (catalogue) => callback(null, catalogue),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    )
  },
}

export function storedLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEY)
  return LANGUAGES.find((language) => language === stored) ?? DEFAULT_LANGUAGE
}

function currentLanguage(): Language {
  return LANGUAGES.find((language) => language === i18n.language) ?? storedLanguage()
}

function applyLanguage(language: string): void {
  dayjs.locale(language)
  document.documentElement.lang = language
}

i18n.on('languageChanged', applyLanguage)

/** Settles once the stored language's core texts are there: the app renders after it, never in a mix. */
export const i18nReady: Promise<unknown> = i18n
  .use(lazyCores)
  .use(initReactI18next)
  .init({
    // A copy: the store merges the areas' texts into it, and the module's object stays as the file says.
    resources: { fr: { translation: { ...frCore } } },
    partialBundledLanguages: true,
    lng: storedLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: LANGUAGES,
    interpolation: { escapeValue: false },
  })

/** The areas asked for so far: a change of language reads them in the new language first. */
const wantedAreas = new Set<Area>()
const areaLoads = new Map<string, Promise<void>>()

function loadArea(language: Language, area: Area): Promise<void> {
  const key = `${language}/${area}`
  const known = areaLoads.get(key)
  if (known) return known
  const read = AREA_FILES[`./${key}.json`] as (() => Promise<ResourceKey>) | undefined
  const load = read
    ? // The core first: i18next reads no core for a language that already holds texts.
      Promise.all([i18n.loadLanguages(language), read()]).then(([, texts]) => {
        i18n.addResourceBundle(language, 'translation', texts, true, true)
      })
    : Promise.reject(new Error(`No texts for the area ${area} in ${language}.`))
  areaLoads.set(key, load)
  load.catch(() => areaLoads.delete(key)) // a failed read (network) is tried again next time
  return load
}

/** The language and the fallback, whose texts show when one is missing. */
function languagesFor(language: Language): Language[] {
  return language === DEFAULT_LANGUAGE ? [language] : [language, DEFAULT_LANGUAGE]
}

/** Reads an area's texts in the current language (once; later calls settle at once). */
export async function loadTexts(area: Area): Promise<void> {
  wantedAreas.add(area)
  await Promise.all(languagesFor(currentLanguage()).map((language) => loadArea(language, area)))
}

/** A route loader that reads an area's texts before its pages render. */
export function textsLoader(area: Area): () => Promise<null> {
  return async () => {
    await loadTexts(area)
    return null
  }
}

/**
 * Switches the interface language and remembers the choice for the next visits. The areas already
 * shown are read in the new language first, so that no page ever shows a key.
 */
export async function chooseLanguage(language: Language): Promise<void> {
  localStorage.setItem(STORAGE_KEY, language)
  await i18n.loadLanguages(language)
  await Promise.all([...wantedAreas].flatMap((area) => languagesFor(language).map((each) => loadArea(each, area))))
  await i18n.changeLanguage(language)
}

export default i18n
