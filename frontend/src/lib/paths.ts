import { listPath } from '../components/lists/address'

// Every in-application address is built here, so that a page moves in one place and no area has
// to reach into another to link to it. The router's patterns (features' routes.tsx) match these: app/paths.test.ts checks it.

export const HOME_PATH = '/'
export const LOGIN_PATH = '/login'

/** The Login address that brings the user back to `pathname` (which includes the base path) afterwards. */
export function loginPathFor(pathname: string, search = ''): string {
  const others = new URLSearchParams(search)
  others.delete('returnUrl')
  // Slashes stay readable in the address bar; they need no escaping inside a query value.
  const returnUrl = encodeURIComponent(pathname).replaceAll('%2F', '/')
  const rest = others.toString()
  return `${LOGIN_PATH}?returnUrl=${returnUrl}${rest ? `&${rest}` : ''}`
}

export const LOGOUT_PATH = '/logout'
export const FORBIDDEN_PATH = '/forbidden'

export const SITES_PATH = '/sites'
/** The sites page with the site of this cartography open. */
export const siteOfCartographyPath = (cartographyId: number) => `${SITES_PATH}?cartographyId=${cartographyId}`
export const CARTOGRAPHIES_PATH = '/cartographies'
export const cartographyPath = (cartographyId: number) => `/cartography/${cartographyId}`
export const FUNCTIONS_PATH = '/functions'
export const functionPath = (functionId: number) => `/function/${functionId}`

export const SUBJECTS_PATH = '/subjects'
/** The subject list filtered on items of the hierarchy, all of them (each criterion is 'location oneOf id'). */
export function subjectsAtPath(...itemIds: number[]): string {
  return listPath(SUBJECTS_PATH, itemIds.map((id) => `location oneOf ${id}`).join(' & '))
}
export const subjectPath = (subjectId: number) => `/subject/${subjectId}`
export const NEW_SUBJECT_PATH = '/subject/add'
/** NewSubject prefilled with the cartography, the function and the activity of a table. */
export function newSubjectAtPath(cartographyId: number, functionId: number, activityId: number): string {
  const query = new URLSearchParams({ cartography: String(cartographyId), function: String(functionId), activity: String(activityId) })
  return `${NEW_SUBJECT_PATH}?${query}`
}
export const editSubjectPath = (subjectId: number) => `/subject/edit/${subjectId}`
export const createFromSubjectPath = (subjectId: number) => `/subject/createFrom/${subjectId}`
/** The subject's mind map, with one node selected when `nodeCode` is given. */
export const subjectMindMapPath = (subjectId: number, nodeCode?: number) =>
  `/subject/${subjectId}/mindmap${nodeCode === undefined ? '' : `?node=${nodeCode}`}`
/** The subject's standardized mind map (the read-only copy beside the live tree). */
export const subjectStandardizedMindMapPath = (subjectId: number) => `/subject/${subjectId}/mindmap/standardized`
/** The subject's diagram (an image or a PDF). */
export const subjectDiagramPath = (subjectId: number) => `/subject/${subjectId}/diagram`

export const MEDIATIONS_PATH = '/mediations'
export const NEW_MEDIATION_PATH = '/mediation/add'
/** NewMediation in its 'Create and start' mode: a title only, the mediation started at once. */
export const START_MEDIATION_PATH = `${NEW_MEDIATION_PATH}?mode=start`
export const editMediationPath = (mediationId: number) => `/mediation/edit/${mediationId}`
export const mediationPath = (mediationId: number) => `/mediation/view/${mediationId}`
export const mediationReportPath = (mediationId: number) => `/mediation/report/${mediationId}`

/** The training modules list's address, without its filter. */
export const TRAINING_MODULES_PATH = '/training/modules'
export const NEW_TRAINING_MODULE_PATH = '/training/module/add'
export const trainingModulePath = (moduleId: number) => `/training/module/view/${moduleId}`
export const editTrainingModulePath = (moduleId: number) => `/training/module/edit/${moduleId}`
export const createFromTrainingModulePath = (moduleId: number) => `/training/module/createFrom/${moduleId}`

/** The training paths list's address, without its filter. */
export const TRAINING_PATHS_PATH = '/training/paths'
export const NEW_TRAINING_PATH_PATH = '/training/path/add'
/** NewTrainingPath prefilled from another path (create from). */
export const createFromTrainingPathPath = (pathId: number) => `${NEW_TRAINING_PATH_PATH}/${pathId}`
export const trainingPathPath = (pathId: number) => `/training/path/view/${pathId}`
export const editTrainingPathPath = (pathId: number) => `/training/path/edit/${pathId}`

/** The in-application address that leaves for a legacy page (the V1Redirection route). */
export const v1RedirectionPath = (to: string) => `/v1?to=${encodeURIComponent(to)}`
export const LMS_PATH = '/lms'
/** The SCORM player of a course, opening one of its units (else the one to go on with). */
/** The SCORM player of a course, on a unit (`item`) opened in a mode of its own (`mode`, Browse or Review) when asked. */
export const lmsPlayerPath = (courseId: number, itemId?: number, mode?: 'Browse' | 'Review') =>
  `/lms/courses/${courseId}/player${itemId === undefined ? '' : `?item=${itemId}`}${itemId !== undefined && mode ? `&mode=${mode}` : ''}`

/** The reference lists' addresses, without their filter. */
export const MODULE_REFERENCES_PATH = '/administration/trainingModuleReferences'
export const PATH_REFERENCES_PATH = '/administration/trainingPathReferences'
/** The path report page: Excel, a PDF per learner, saved parameter sets. */
export const TRAINING_PATH_REPORT_PATH = '/administration/trainingPathReport'

export const PERMISSIONS_PATH = '/administration/permissions'
export const CARTOGRAPHIES_VISIBILITY_PATH = '/administration/cartographies/permissions'
/** The users list's address, without its filter. */
export const USERS_PATH = '/administration/users'
/** The e-mails Spot sends, queued, sent or failed (the server's messages link here). */
export const OUTBOX_PATH = '/administration/outbox'
/** The signed-in person's choice of the messages they receive (the account menu; every e-mail links to it). */
export const NOTIFICATION_PREFERENCES_PATH = '/account/notifications'
/** The signed-in person's jobs: a zip of reports being made or ready to download (the account menu, the bell). */
export const JOBS_PATH = '/jobs'

/** The qualifications list's address, without its filter. */
export const QUALIFICATIONS_PATH = '/qualifications'
export const NEW_QUALIFICATION_PATH = '/qualification/add'
export const qualificationPath = (qualificationId: number) => `/qualification/view/${qualificationId}`
export const editQualificationPath = (qualificationId: number) => `/qualification/edit/${qualificationId}`

export const MY_DASHBOARD_PATH = '/dashboards/mine'
/** The Dashboard manager (spec 1 §2): the groups, the cartographies and the people a manager follows. */
export const MANAGER_DASHBOARD_PATH = '/dashboards/manager'
export const TRAINING_PATH_DASHBOARD_PATH = '/dashboards/trainingPath'
export const groupTrainingPathDashboardPath = (groupId: number) => `/dashboards/trainingPath/group/${groupId}`
export const CONTRIBUTIONS_DASHBOARD_PATH = '/dashboards/contributions'
export const cartographyQualificationDashboardPath = (cartographyId: number) =>
  `/dashboards/qualifications/cartography/${cartographyId}`
/** The skills matrix of a cartography: its people × its functions (docs/qualifications.md). */
export const skillsMatrixPath = (cartographyId: number) => `/dashboards/qualifications/cartography/${cartographyId}/matrix`
export const groupQualificationDashboardPath = (groupId: number) => `/dashboard/qualifications/group/${groupId}`
/** The signed-in user's own qualification status ('My qualifications'). */
export const MY_QUALIFICATIONS_PATH = '/dashboard/qualifications/user'
/** Another user's qualification status (perm_TableauBord). */
export const userQualificationDashboardPath = (userId: number) => `${MY_QUALIFICATIONS_PATH}/${userId}`
