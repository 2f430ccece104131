import { describe, expect, it } from 'vitest'
import { PERMISSIONS } from '../lib/permissions'
import i18n, { chooseLanguage, storedLanguage } from '.'
import { catalogues } from '../test/catalogues'

type Entries = [string, string][]

function entries(tree: object, prefix = ''): Entries {
  return Object.entries(tree).flatMap(([key, value]): Entries =>
    typeof value === 'object' && value !== null ? entries(value as object, `${prefix}${key}.`) : [[`${prefix}${key}`, String(value)]],
  )
}

const keys = (tree: object) => entries(tree).map(([key]) => key)

describe('catalogues', () => {
  it('have the same keys in French and English', () => {
    expect(keys(catalogues.en).sort()).toEqual(keys(catalogues.fr).sort())
  })

  it('have no empty text', () => {
    const empty = [...entries(catalogues.fr), ...entries(catalogues.en)].filter(([, value]) => value.trim() === '')
    expect(empty).toEqual([])
  })

  // A control's accessible name holds its visible text, word for word and in one run (WCAG 2.5.3, axe's
  // label-content-name-mismatch): the `…Name` text of a key names the control whose sibling key is its label.
  it('name each control with its visible text as a run of words', () => {
    const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)
    const within = (name: string[], label: string[]) => name.some((_, at) => label.every((word, i) => name[at + i] === word))
    for (const language of ['fr', 'en'] as const) {
      const texts = new Map(entries(catalogues[language]))
      const apart = [...texts]
        .filter(([key]) => key.endsWith('Name') && texts.has(key.slice(0, -4)))
        .filter(([key, name]) => !within(words(name.replace(/\{\{[^}]*\}\}/g, ' {placeholder} ')), words(texts.get(key.slice(0, -4)) ?? '')))
        .map(([key]) => `${language} ${key}`)
      expect(apart).toEqual([])
    }
  })

  it('label every permission in both languages', () => {
    for (const name of PERMISSIONS) {
      expect(catalogues.fr.permissionNames).toHaveProperty(name)
      expect(catalogues.en.permissionNames).toHaveProperty(name)
    }
  })

  it('translate the validation keys of the specification and the server error codes', () => {
    const codes = [
      'emptyFieldError',
      'beginEndWhitespaceError',
      'atLeastOneErrorLeft',
      'loginError',
      'mustNotBeEmpty',
      'invalidValue',
      'loginAlreadyUsed',
      'groupNameAlreadyUsed',
      'lastAdministrator',
      'cannotDeleteYourself',
      'unknownPermission',
      'apiTokenRevoked',
      'apiTokenNotFound',
      // A server or its database or file store out of reach (503).
      'databaseUnavailable',
      'databaseBusy',
      'fileStoreUnavailable',
    ]
    for (const code of codes) {
      expect(catalogues.en.codes).toHaveProperty(code)
      expect(catalogues.fr.codes).toHaveProperty(code)
    }
  })
})

describe('language', () => {
  it('is French by default', () => {
    expect(storedLanguage()).toBe('fr')
  })

  it('falls back to French for a text missing in English', async () => {
    i18n.addResource('fr', 'translation', 'probe.onlyInFrench', 'Seulement en français')
    await i18n.changeLanguage('en')
    expect(i18n.t('probe.onlyInFrench')).toBe('Seulement en français')
    expect(i18n.t('actions.cancel')).toBe('Cancel')
  })

  it('remembers the chosen language', async () => {
    await chooseLanguage('en')
    expect(localStorage.getItem('spot.language')).toBe('en')
    expect(storedLanguage()).toBe('en')
    expect(i18n.language).toBe('en')
    expect(document.documentElement.lang).toBe('en')
  })
})
