import { matchRoutes } from 'react-router'
import { describe, expect, it } from 'vitest'
import * as paths from '../lib/paths'
import { routes } from './router'

/** The pattern of the deepest route an address reaches, '*' when it is an unknown page. */
function routeOf(address: string): string | undefined {
  const { pathname } = new URL(address, 'http://spot.test')
  return matchRoutes(routes, pathname)?.at(-1)?.route.path
}

describe('the addresses of lib/paths.ts', () => {
  it.each([
    paths.HOME_PATH,
    paths.LOGIN_PATH,
    paths.LOGOUT_PATH,
    paths.FORBIDDEN_PATH,
    paths.SITES_PATH,
    paths.siteOfCartographyPath(2),
    paths.CARTOGRAPHIES_PATH,
    paths.cartographyPath(2),
    paths.FUNCTIONS_PATH,
    paths.functionPath(12),
    paths.SUBJECTS_PATH,
    paths.subjectsAtPath(1, 2),
    paths.subjectPath(5),
    paths.NEW_SUBJECT_PATH,
    paths.newSubjectAtPath(2, 12, 4),
    paths.editSubjectPath(5),
    paths.createFromSubjectPath(5),
    paths.subjectMindMapPath(5),
    paths.subjectMindMapPath(5, 3),
    paths.subjectStandardizedMindMapPath(5),
    paths.subjectDiagramPath(5),
    paths.MEDIATIONS_PATH,
    paths.NEW_MEDIATION_PATH,
    paths.START_MEDIATION_PATH,
    paths.editMediationPath(7),
    paths.mediationPath(7),
    paths.mediationReportPath(7),
    paths.TRAINING_MODULES_PATH,
    paths.NEW_TRAINING_MODULE_PATH,
    paths.trainingModulePath(3),
    paths.editTrainingModulePath(3),
    paths.createFromTrainingModulePath(3),
    paths.TRAINING_PATHS_PATH,
    paths.NEW_TRAINING_PATH_PATH,
    paths.createFromTrainingPathPath(4),
    paths.trainingPathPath(4),
    paths.editTrainingPathPath(4),
    paths.v1RedirectionPath('spot/LYON/fonction/CAR/pdvbas/X'),
    paths.LMS_PATH,
    paths.lmsPlayerPath(3),
    paths.lmsPlayerPath(3, 12),
    paths.PERMISSIONS_PATH,
    paths.CARTOGRAPHIES_VISIBILITY_PATH,
    paths.USERS_PATH,
    paths.OUTBOX_PATH,
    paths.MODULE_REFERENCES_PATH,
    paths.PATH_REFERENCES_PATH,
    paths.TRAINING_PATH_REPORT_PATH,
    paths.QUALIFICATIONS_PATH,
    paths.NEW_QUALIFICATION_PATH,
    paths.qualificationPath(9),
    paths.editQualificationPath(9),
    paths.MY_DASHBOARD_PATH,
    paths.MANAGER_DASHBOARD_PATH,
    paths.TRAINING_PATH_DASHBOARD_PATH,
    paths.groupTrainingPathDashboardPath(3),
    paths.CONTRIBUTIONS_DASHBOARD_PATH,
    paths.cartographyQualificationDashboardPath(2),
    paths.groupQualificationDashboardPath(3),
    paths.MY_QUALIFICATIONS_PATH,
    paths.userQualificationDashboardPath(8),
  ])('%s is a page of the router', (address) => {
    expect(routeOf(address)).not.toBe('*')
  })

  it('are told from unknown pages', () => {
    expect(routeOf('/no/such/page')).toBe('*')
  })
})

describe('loginPathFor', () => {
  it('sends to Login with the requested path, base path included, as returnUrl', () => {
    expect(paths.loginPathFor('/spotv2/administration/users')).toBe('/login?returnUrl=/spotv2/administration/users')
  })

  it('carries the original query over after the returnUrl', () => {
    expect(paths.loginPathFor('/spotv2/subjects/x', '?applyDefaultFilter=true&sorting=-name')).toBe(
      '/login?returnUrl=/spotv2/subjects/x&applyDefaultFilter=true&sorting=-name',
    )
  })

  it('escapes what would break the query but keeps slashes readable', () => {
    expect(paths.loginPathFor('/spotv2/a b&c')).toBe('/login?returnUrl=/spotv2/a%20b%26c')
  })

  it('does not repeat a returnUrl of the original query', () => {
    expect(paths.loginPathFor('/spotv2/', '?returnUrl=/elsewhere')).toBe('/login?returnUrl=/spotv2/')
  })
})
