import { describe, expect, it } from 'vitest'
import i18n from '.'

// Texts counting something agree with their count in each language (French counts 0 and 1 in the singular).
describe('texts with a count', () => {
  it.each([
    ['fr', 'reports.outputs.progress', { count: 1, total: 3 }, '1 apprenant sur 3'],
    ['fr', 'reports.outputs.progress', { count: 2, total: 3 }, '2 apprenants sur 3'],
    ['en', 'reports.outputs.progress', { count: 1, total: 3 }, '1 learner of 3'],
    ['en', 'reports.outputs.progress', { count: 2, total: 3 }, '2 learners of 3'],
    ['fr', 'mediations.report.selectedCount', { count: 1, total: 3 }, '1 sélectionnée sur 3'],
    ['fr', 'mediations.report.selectedCount', { count: 3, total: 3 }, '3 sélectionnées sur 3'],
    ['en', 'mediations.report.selectedCount', { count: 1, total: 3 }, '1 of 3 selected'],
    ['fr', 'alerts.kinds.qualificationExpiring', { name: 'CACES', days: 1 }, 'Votre qualification « CACES » expire dans 1 jour'],
    ['fr', 'alerts.kinds.qualificationExpiring', { name: 'CACES', days: 12 }, 'Votre qualification « CACES » expire dans 12 jours'],
    ['fr', 'alerts.kinds.qualificationExpiring', { name: 'CACES', days: 0 }, "Votre qualification « CACES » expire aujourd'hui"],
    ['en', 'alerts.kinds.qualificationExpiring', { name: 'CACES', days: 1 }, 'Your qualification “CACES” expires in 1 day'],
    ['en', 'alerts.kinds.teamQualificationExpiring', { name: 'CACES', user: 'Inès', days: 1 }, 'The qualification “CACES” of Inès expires in 1 day'],
    ['fr', 'alerts.kinds.teamQualificationExpiring', { name: 'CACES', user: 'Inès', days: 40 }, 'La qualification « CACES » de Inès expire dans 40 jours'],
    ['en', 'alerts.kinds.functionUnderMinimum', { name: 'Soudeur', cartography: 'Atelier', days: 46, valid: 2, minimum: 3 }, '“Soudeur” (Atelier) falls under its minimum in 46 days: 2 qualified of 3'],
    ['fr', 'alerts.kinds.functionUnderMinimum', { name: 'Soudeur', cartography: 'Atelier', days: 1, valid: 0, minimum: 1 }, '« Soudeur » (Atelier) passe sous son minimum dans 1 jour : 0 qualifié(s) sur 1'],
    ['en', 'coverageForecast.requalifying', { count: 1 }, '1 being requalified'],
    ['fr', 'mapping.cartography.coverage.count', { count: 1 }, '1 fonction'],
    ['fr', 'mapping.cartography.coverage.count', { count: 0 }, '0 fonction'],
    ['en', 'mapping.cartography.coverage.count', { count: 0 }, '0 functions'],
  ])('%s %s %o', (language, key, options, text) => {
    expect(i18n.getFixedT(language)(key, options)).toBe(text)
  })
})
