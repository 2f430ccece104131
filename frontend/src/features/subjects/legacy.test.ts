import { describe, expect, it } from 'vitest'
import type { ContextEntry } from '../../api/types'
import { v1RedirectionPath } from '../../app/paths'
import { legacyTargets, legacyUrl } from './legacy'

const functionPath: ContextEntry[] = [
  { id: 1, code: 'LYON', name: 'Usine de Lyon', type: 'site' },
  { id: 2, code: 'USI', name: "Atelier d'usinage", type: 'cartography' },
  { id: 14, code: 'CAR', name: 'Cariste', type: 'function' },
]
const activityPath: ContextEntry[] = [...functionPath.slice(0, 2), { id: 3, code: 'USI-REC', name: 'Réception', type: 'activity' }]

const subject = (changes: { hasDiagram?: boolean; standardized?: boolean; contexts?: ContextEntry[][]; code?: string } = {}) => ({
  code: changes.code ?? 'USI-002',
  hasDiagram: changes.hasDiagram ?? false,
  lifetimeEvents: { standardized: changes.standardized ? { userId: 1, userName: 'A', date: '2026-01-01T00:00:00Z' } : null },
  contexts: changes.contexts ?? [activityPath, functionPath],
})

describe('legacy targets of a subject', () => {
  it('builds the mind-map address from the site, function and subject codes', () => {
    expect(legacyTargets(subject())).toEqual({ mindMap: 'spot/LYON/fonction/CAR/pdvhaut/USI-002//', diagram: undefined, standardized: undefined })
  })

  it('adds the diagram only with a diagram and the standardized mind map only when standardized', () => {
    const targets = legacyTargets(subject({ hasDiagram: true, standardized: true }))
    expect(targets?.diagram).toBe('spot/LYON/fonction/CAR/pdvbas/USI-002')
    expect(targets?.standardized).toBe('spot/LYON/fonction/CAR/pdvhaut/USI-002/standard')
  })

  it('has none without a context', () => {
    expect(legacyTargets(subject({ contexts: [] }))).toBeUndefined()
    expect(legacyTargets(subject({ contexts: [activityPath] }))).toBeUndefined()
  })

  it('escapes codes so that each stays one path segment', () => {
    expect(legacyTargets(subject({ code: 'A/B 1' }))?.mindMap).toBe('spot/LYON/fonction/CAR/pdvhaut/A%2FB%201//')
  })
})

describe('legacy redirection', () => {
  it('goes through the V1Redirection route with the target in query to', () => {
    expect(v1RedirectionPath('spot/LYON/fonction/CAR/pdvbas/X')).toBe('/v1?to=spot%2FLYON%2Ffonction%2FCAR%2Fpdvbas%2FX')
  })

  it('leads under the legacy base, with or without its final slash', () => {
    expect(legacyUrl('https://old.example.com/spot-v1', 'spot/LYON/fonction/CAR/pdvbas/X')).toBe(
      'https://old.example.com/spot-v1/spot/LYON/fonction/CAR/pdvbas/X',
    )
    expect(legacyUrl('https://old.example.com/', null)).toBe('https://old.example.com/')
  })

  it('has no address when no legacy base is set', () => {
    expect(legacyUrl(null, 'spot/A')).toBeUndefined()
    expect(legacyUrl('', null)).toBeUndefined()
  })

  it('never leaves the legacy base', () => {
    for (const to of ['https://evil.example.com/', '//evil.example.com/x', 'javascript:alert(1)', '/etc', '../../admin', '\\\\evil']) {
      expect(legacyUrl('https://old.example.com/v1/', to)).toBeUndefined()
    }
  })
})
