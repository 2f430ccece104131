import type { ContextEntry } from '../../api/types'

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
