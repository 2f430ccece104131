import { describe, expect, it } from 'vitest'
import { textFiles } from '../test/catalogues'
import i18n, { AREAS, chooseLanguage, LANGUAGES, loadTexts } from '.'

/** Every source file but the tests, by path from src/ (`features/subjects/SubjectPage.tsx`). */
const SOURCES = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../test/**', '!../api/schema.d.ts'], {
      query: '?raw',
      import: 'default',
      eager: true,
    }),
  ).map(([path, text]) => [path.replace(/^\.\.\//, ''), text]),
)

/** The router registers these areas' routes itself (they have no routes.tsx). */
const ROUTED_BY_APP = new Set(['users', 'permissions'])

const areaFiles = (language: (typeof LANGUAGES)[number]) => Object.entries(textFiles(language)).filter(([name]) => name !== 'core')

/** The files that name a key of top-level group `group` literally ('group.…', "group.…" or `group.…`). */
function filesUsing(group: string): string[] {
  const literal = new RegExp(`['"\`]${group}\\.`)
  return Object.keys(SOURCES).filter((path) => literal.test(SOURCES[path]))
}

/**
 * Whether a file shows only within its area's pages: under features/<area>/, but not its routes or
 * navigation, which the shell reads (the drawer shows in every page, before any area is loaded).
 */
const insideArea = (path: string, area: string) =>
  path.startsWith(`features/${area}/`) && !/^features\/[^/]+\/(routes\.tsx|navigation\.ts)$/.test(path)

describe('area texts', () => {
  it('are listed in AREAS, one file per area, with the same groups in every language', () => {
    for (const language of LANGUAGES) {
      const files = areaFiles(language)
      expect(files.map(([name]) => name).sort()).toEqual([...AREAS].sort())
      expect(Object.keys(textFiles(language))).toContain('core')
    }
    const groups = (language: (typeof LANGUAGES)[number]) =>
      Object.fromEntries(Object.entries(textFiles(language)).map(([name, texts]) => [name, Object.keys(texts).sort()]))
    expect(groups('en')).toEqual(groups('fr'))
  })

  it('put each top-level group in one file only', () => {
    for (const language of LANGUAGES) {
      const owners = new Map<string, string[]>()
      for (const [name, texts] of Object.entries(textFiles(language)))
        for (const group of Object.keys(texts)) owners.set(group, [...(owners.get(group) ?? []), name])
      expect([...owners].filter(([, names]) => names.length > 1)).toEqual([])
    }
  })

  it('name features that exist', () => {
    for (const area of AREAS) expect(Object.keys(SOURCES).some((path) => path.startsWith(`features/${area}/`))).toBe(true)
  })

  it('are used only by the pages of their area', () => {
    const strays = areaFiles('fr').flatMap(([area, texts]) =>
      Object.keys(texts).flatMap((group) => filesUsing(group).filter((path) => !insideArea(path, area)).map((path) => `${group}.* in ${path}`)),
    )
    expect(strays).toEqual([])
    // The scan does see the keys: every area group is used somewhere.
    for (const [, texts] of areaFiles('fr')) for (const group of Object.keys(texts)) expect(filesUsing(group)).not.toEqual([])
  })

  it("are read by the area's routes before its pages render", () => {
    for (const area of AREAS) {
      const routes = ROUTED_BY_APP.has(area) ? SOURCES['app/router.tsx'] : SOURCES[`features/${area}/routes.tsx`]
      expect(routes, area).toContain(`textsLoader('${area}')`)
    }
  })

  it("stay with their area's pages: the rest of the app imports only an area's routes and navigation", () => {
    const reaching = Object.entries(SOURCES).flatMap(([path, text]) =>
      AREAS.flatMap((area) =>
        [...text.matchAll(new RegExp(`features/${area}/([\\w./-]+)'`, 'g'))]
          .filter(([, target]) => !path.startsWith(`features/${area}/`) && !['routes', 'navigation'].includes(target))
          .filter(() => !(ROUTED_BY_APP.has(area) && path === 'app/router.tsx'))
          .map(([, target]) => `${path} imports features/${area}/${target}`),
      ),
    )
    expect(reaching).toEqual([])
  })
})

describe('loadTexts', () => {
  /** Takes an area's groups out of both languages, as before any of its pages was visited. */
  const forget = (group: string) => {
    for (const language of LANGUAGES) {
      const all = i18n.getResourceBundle(language, 'translation') as Record<string, unknown>
      const texts = Object.fromEntries(Object.entries(all).filter(([name]) => name !== group))
      i18n.removeResourceBundle(language, 'translation')
      i18n.addResourceBundle(language, 'translation', texts)
    }
  }

  it("reads an area's texts in the current language, and keeps them when the language changes", async () => {
    forget('subjects')
    await i18n.changeLanguage('en')
    expect(i18n.t('subjects.context')).toBe('subjects.context')
    await loadTexts('subjects')
    expect(i18n.t('subjects.context')).toBe('Context')
    await chooseLanguage('fr')
    expect(i18n.t('subjects.context')).toBe('Contexte')
  })

  it('reads the areas already shown in the new language before switching to it', async () => {
    forget('lms')
    await i18n.changeLanguage('fr')
    await loadTexts('lms')
    expect(i18n.t('lms.pageTitle')).toBe('Plateforme de formation')
    expect(i18n.getResource('en', 'translation', 'lms.pageTitle')).toBeUndefined()
    const switching = chooseLanguage('en')
    expect(i18n.language).toBe('fr') // until the English texts of the area are there
    await switching
    expect(i18n.language).toBe('en')
    expect(i18n.t('lms.pageTitle')).toBe('Learning platform')
    await loadTexts('lms') // read once: a second call settles with the texts already there
    expect(i18n.t('lms.pageTitle')).toBe('Learning platform')
  })
})
