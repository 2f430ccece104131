import { describe, expect, it } from 'vitest'
import type { ContextEntry } from '../../api/types'
import { v1RedirectionPath } from '../../lib/paths'
import { isSpotViewTarget, legacyTargetPath, legacyTargets, legacyUrl, subjectViewLinks } from './legacy'

const functionPath: ContextEntry[] = [
  { id: 1, code: 'LYON', name: 'Usine de Lyon', type: 'site' },
  { id: 2, code: 'USI', name: "Atelier d'usinage", type: 'cartography' },
  { id: 14, code: 'CAR', name: 'Cariste', type: 'function' },
]
const activityPath: ContextEntry[] = [...functionPath.slice(0, 2), { id: 3, code: 'USI-REC', name: 'Réception', type: 'activity' }]

const subject = (changes: { hasDiagram?: boolean; standardized?: boolean; contexts?: ContextEntry[][]; code?: string } = {}) => ({
  id: 5,
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

describe('the mind map, diagram and standardized buttons of a subject', () => {
  const LEGACY = 'https://old.example.com/v1/'
  const v1 = (target: string) => `/v1?to=${encodeURIComponent(target)}`

  it.each([
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ])('lead to Spot\'s own views without a legacy address (diagram %s, standardized %s), with or without a context', (hasDiagram, standardized) => {
    for (const contexts of [[activityPath, functionPath], []]) {
      for (const base of [null, undefined, '']) {
        expect(subjectViewLinks(subject({ hasDiagram, standardized, contexts }), base)).toEqual({
          mindMap: '/subject/5/mindmap',
          diagram: hasDiagram ? '/subject/5/diagram' : undefined,
          standardized: standardized ? '/subject/5/mindmap/standardized' : undefined,
        })
      }
    }
  })

  it.each([
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ])('lead to the legacy pages through V1Redirection with a legacy address (diagram %s, standardized %s)', (hasDiagram, standardized) => {
    expect(subjectViewLinks(subject({ hasDiagram, standardized }), LEGACY)).toEqual({
      mindMap: v1('spot/LYON/fonction/CAR/pdvhaut/USI-002//'),
      diagram: hasDiagram ? v1('spot/LYON/fonction/CAR/pdvbas/USI-002') : undefined,
      standardized: standardized ? v1('spot/LYON/fonction/CAR/pdvhaut/USI-002/standard') : undefined,
    })
  })

  it('are absent with a legacy address for a subject without a context', () => {
    expect(subjectViewLinks(subject({ hasDiagram: true, standardized: true, contexts: [] }), LEGACY)).toBeUndefined()
    expect(subjectViewLinks(subject({ contexts: [activityPath] }), LEGACY)).toBeUndefined()
  })
})

describe('legacy targets Spot answers itself', () => {
  it('are the function, mind-map, standardized and diagram forms', () => {
    for (const to of [
      'spot/LYON/fonction/CAR',
      'spot/LYON/fonction/C%2FA%20R',
      'spot/LYON/fonction/CAR/pdvhaut/USI-002//',
      'spot/LYON/fonction/CAR/pdvhaut/USI-002/standard',
      'spot/LYON/fonction/CAR/pdvhaut/USI-002/',
      'spot/LYON/fonction/CAR/pdvbas/USI-002',
      'spot/LYON/fonction/CAR/pdvhaut/A%2FB%201//',
    ]) {
      expect(isSpotViewTarget(to)).toBe(true)
    }
  })

  it('are not the other forms', () => {
    for (const to of [null, '', 'spot/LYON', 'spot/LYON/fonction', 'spot/LYON/fonction/CAR/', 'spot/LYON/fonction/CAR/pdvbas/X/Y', 'lms/course/3', 'spot/LYON/fonction/CAR/pdvhaut/X']) {
      expect(isSpotViewTarget(to)).toBe(false)
    }
  })

  it('open the matching page of Spot', () => {
    expect(legacyTargetPath({ view: 'function', functionId: 12 })).toBe('/function/12')
    expect(legacyTargetPath({ view: 'mindMap', subjectId: 5 })).toBe('/subject/5/mindmap')
    expect(legacyTargetPath({ view: 'standardized', subjectId: 5 })).toBe('/subject/5/mindmap/standardized')
    expect(legacyTargetPath({ view: 'diagram', subjectId: 5 })).toBe('/subject/5/diagram')
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
