import dayjs from 'dayjs'
import 'dayjs/locale/en'
import 'dayjs/locale/fr'
import i18n, { type BackendModule, type ResourceKey } from 'i18next'
import { initReactI18next } from 'react-i18next'
import fr from './fr.json'

export const LANGUAGES = ['fr', 'en'] as const
export type Language = (typeof LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'fr'
const STORAGE_KEY = 'spot.language'

/**
 * French, the default and the fallback, is in the initial bundle; English is a chunk of its own, read
 * the first time it is chosen (the catalogues grow with every area, and most people never load both).
 */
const CATALOGUES: Record<Language, () => Promise<ResourceKey>> = {
  fr: () => Promise.resolve(fr),
  en: () => import('./en.json').then((module) => module.default),
}

const lazyCatalogues: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read: (language, _namespace, callback) => {
    const load = CATALOGUES[language as Language] as (() => Promise<ResourceKey>) | undefined
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

function applyLanguage(language: string): void {
  dayjs.locale(language)
  document.documentElement.lang = language
}

i18n.on('languageChanged', applyLanguage)

/** Settles once the stored language's catalogue is there: the app renders after it, never in a mix. */
export const i18nReady: Promise<unknown> = i18n
  .use(lazyCatalogues)
  .use(initReactI18next)
  .init({
    resources: { fr: { translation: fr } },
    partialBundledLanguages: true,
    lng: storedLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: LANGUAGES,
    interpolation: { escapeValue: false },
  })

/** Switches the interface language and remembers the choice for the next visits. */
export function chooseLanguage(language: Language): void {
  localStorage.setItem(STORAGE_KEY, language)
  void i18n.changeLanguage(language)
}

export default i18n
