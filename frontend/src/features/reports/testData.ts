import type { ReportConfiguration, ReportRequest } from './api'

/** The server's defaults (spec 2 §9), as GET /reports/trainingPaths/defaults answers them for 2026. */
export const DEFAULTS: ReportRequest = {
  selectors: {
    start: '2026-01-01',
    stop: '2026-12-31',
    learnerIdList: [],
    groupIdList: [],
    pathStatutes: ['notAccepted', 'accepted', 'started', 'finished', 'validated', 'archived', 'canceled'],
    moduleStatutes: ['notStarted', 'started', 'finished', 'validated', 'archived'],
    moduleTypes: ['training'],
  },
  documentOptions: { documentTitle: '', displayExternalIds: true, learnerSignature: true, managerSignature: true, managerSignatureLabel: '', signatureImage: null },
  pathOptions: { reference: true, dates: true, status: true, creator: true, validation: true, signature: true, completion: true, averageGrade: true, duration: true },
  moduleOptions: {
    reference: true,
    goals: true,
    referents: true,
    dates: true,
    status: true,
    grades: true,
    comments: true,
    signatures: true,
    mediations: true,
    mediators: false,
    results: true,
  },
}

/** A saved parameter set: the defaults with learners and groups, under a name. */
export function configuration(name: string, patch: Partial<ReportConfiguration> = {}): ReportConfiguration {
  return { ...DEFAULTS, selectors: { ...DEFAULTS.selectors, learnerIdList: [4], groupIdList: [2] }, name, isDefault: false, ...patch }
}
