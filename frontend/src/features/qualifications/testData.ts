import type { DashboardElement } from '../../components/qualifications/types'
import type { Qualification, QualificationCan } from './api'

export const NOTHING: QualificationCan = { edit: false, delete: false, seeDashboard: false }

export function qualification(changes: Partial<Qualification> = {}): Qualification {
  return {
    id: 9,
    name: 'Habilitation électrique',
    cartographies: [{ id: 2, name: 'Atelier mécanique', siteName: 'Lyon' }],
    qualifiableGroups: [{ id: 7, name: 'Opérateurs' }],
    modules: [
      { id: 31, name: 'Consignation', periodicity: 12, enabled: true },
      { id: 32, name: 'Premiers secours', periodicity: 0, enabled: false },
    ],
    functions: [{ id: 51, name: 'Régleur', cartographyId: 2 }],
    requalificationWindowDays: 60,
    defaultReferents: [{ id: 6, name: 'Rémi Référent' }],
    discussionId: 40,
    creation: { userId: 1, userName: 'Alice Martin', date: '2026-10-01T08:00:00Z' },
    version: 2,
    can: NOTHING,
    ...changes,
  }
}

export const BY_USER: DashboardElement[] = [
  {
    item: { id: 5, name: 'Gabriel Roux', total: 2, obtained: 1, counts: { good: 1, warn: 0, none: 1 }, remainingDays: -10000, state: 'none', validUntil: null, link: { type: 'user', id: 5 } },
    children: [
      { id: 31, name: 'Consignation', remainingDays: 200, state: 'good', validUntil: '2027-06-12', validationTrainingPath: 70, requalificationTrainingPath: null, link: { type: 'module', id: 31 } },
      { id: 32, name: 'Premiers secours', remainingDays: -10000, state: 'none', validUntil: null, validationTrainingPath: null, requalificationTrainingPath: null, link: { type: 'module', id: 32 } },
    ],
  },
]

export const BY_MODULE: DashboardElement[] = [
  {
    item: { id: 31, name: 'Consignation', total: 1, obtained: 1, counts: { good: 1, warn: 0, none: 0 }, remainingDays: 200, state: 'good', validUntil: '2027-06-12', link: { type: 'module', id: 31 } },
    children: [{ id: 5, name: 'Gabriel Roux', remainingDays: 200, state: 'good', validUntil: '2027-06-12', validationTrainingPath: 70, requalificationTrainingPath: null, link: { type: 'user', id: 5 } }],
  },
]
