import type { ContextEntry } from '../../api/types'
import type { components } from '../../api/schema'
import { functionPath, subjectDiagramPath, subjectMindMapPath, subjectStandardizedMindMapPath, v1RedirectionPath } from '../../lib/paths'

/** The flag of the legacy mind-map address that shows its standardized version. */
export const STANDARDIZED_FLAG = 'standard'

export interface LegacyTargets {
  mindMap: string
  /** Only when the subject has a diagram. */
  diagram?: string
  /** Only when the subject is standardized. */
  standardized?: string
}

interface LegacySubject {
  id: number
  code: string
  hasDiagram: boolean
  lifetimeEvents: { standardized: unknown }
  contexts: ContextEntry[][]
}

/**
 * The legacy (V1) pages of a subject, as addresses relative to the legacy base (spec 1 §2):
 * spot/{siteCode}/fonction/{functionCode}/pdvhaut/{nodeCode}/ then the flag or a second slash,
 * and spot/{siteCode}/fonction/{functionCode}/pdvbas/{nodeCode}. None without a context.
 */
export function legacyTargets(subject: LegacySubject): LegacyTargets | undefined {
  const context = subject.contexts.find((entries) => entries.some((entry) => entry.type === 'function'))
  const site = context?.find((entry) => entry.type === 'site')
  const fn = context?.find((entry) => entry.type === 'function')
  if (!site || !fn) return undefined
  const segment = encodeURIComponent
  const base = `spot/${segment(site.code)}/fonction/${segment(fn.code)}`
  const node = segment(subject.code)
  return {
    mindMap: `${base}/pdvhaut/${node}//`,
    diagram: subject.hasDiagram ? `${base}/pdvbas/${node}` : undefined,
    standardized: subject.lifetimeEvents.standardized ? `${base}/pdvhaut/${node}/${STANDARDIZED_FLAG}` : undefined,
  }
}

/**
 * The absolute legacy address of `to` under the legacy base; undefined when no base is set or
 * when `to` would leave it (only relative paths are followed, so the route cannot send users elsewhere).
 */
export function legacyUrl(base: string | null | undefined, to: string | null): string | undefined {
  if (!base) return undefined
  const root = new URL(base.endsWith('/') ? base : `${base}/`)
  const path = to ?? ''
  if (/^[a-z][a-z\d+.-]*:/i.test(path) || path.startsWith('/') || path.includes('\\')) return undefined
  const target = new URL(path, root)
  return target.origin === root.origin && target.pathname.startsWith(root.pathname) ? target.href : undefined
}

/** The in-application addresses of a subject's mind map, diagram and standardized mind map. */
export type SubjectViewLinks = LegacyTargets

/**
 * Where the mind map, diagram (only with a diagram) and standardized mind map (only when
 * standardized) buttons lead (spec 1 §2): with a legacy address, through V1Redirection to the
 * legacy pages (none without a context); without one, to Spot's own views, context or not.
 */
export function subjectViewLinks(subject: LegacySubject, legacyBaseUrl: string | null | undefined): SubjectViewLinks | undefined {
  if (legacyBaseUrl) {
    const targets = legacyTargets(subject)
    return (
      targets && {
        mindMap: v1RedirectionPath(targets.mindMap),
        diagram: targets.diagram && v1RedirectionPath(targets.diagram),
        standardized: targets.standardized && v1RedirectionPath(targets.standardized),
      }
    )
  }
  return {
    mindMap: subjectMindMapPath(subject.id),
    diagram: subject.hasDiagram ? subjectDiagramPath(subject.id) : undefined,
    standardized: subject.lifetimeEvents.standardized ? subjectStandardizedMindMapPath(subject.id) : undefined,
  }
}

// The function, mind-map and diagram forms of a legacy target: Spot answers them itself without the legacy application.
const VIEW_TARGET = /^spot\/[^/]+\/fonction\/[^/]+(?:\/pdvhaut\/[^/]+\/(?:\/|[^/]+)?|\/pdvbas\/[^/]+)?$/

/** Whether `to` names a function, or a subject's mind map, standardized mind map or diagram (resolved by GET /legacy/target). */
export const isSpotViewTarget = (to: string | null): to is string => to !== null && VIEW_TARGET.test(to)

type LegacyTarget = components['schemas']['SubjectTarget'] | components['schemas']['FunctionTarget']

/** Spot's own page of a resolved legacy target. */
export function legacyTargetPath(target: LegacyTarget): string {
  switch (target.view) {
    case 'function':
      return functionPath(target.functionId)
    case 'mindMap':
      return subjectMindMapPath(target.subjectId)
    case 'standardized':
      return subjectStandardizedMindMapPath(target.subjectId)
    case 'diagram':
      return subjectDiagramPath(target.subjectId)
  }
}
