// The one place TanStack Query keys are built. Each area's keys sit under its own first segment,
// which is what a change invalidates, so a query and the invalidations that refresh it cannot drift
// apart: both take their key from here.

export const queryKeys = {
  account: {
    all: ['account'] as const,
    whoAmI: ['account', 'whoAmI'] as const,
    identityProviders: (redirectUrl: string) => ['account', 'identityProviders', redirectUrl] as const,
    savedFilters: ['account', 'filters'] as const,
    /** The bell: what awaits the user, from every area. */
    alerts: ['account', 'alerts'] as const,
  },
  organization: {
    info: ['organization', 'info'] as const,
  },
  querylang: {
    fields: (entityType: string) => ['querylang', entityType, 'fields'] as const,
    parse: (entityType: string, filter: string, sort: string) => ['querylang', entityType, 'parse', filter, sort] as const,
  },
  /** Prefix of the members searched and named by a filter editor of this entity type. */
  filterValues: (entityType: string) => ['lists', entityType] as const,
  mapping: {
    /** Every change of the map's content invalidates this. */
    all: ['mapping'] as const,
    sites: ['mapping', 'sites'] as const,
    cartographies: ['mapping', 'cartographies'] as const,
    cartographiesList: ['mapping', 'cartographies', 'list'] as const,
    functionsList: ['mapping', 'functions', 'list'] as const,
    cartography: (cartographyId: number) => ['mapping', 'cartography', cartographyId] as const,
    documents: (siteId: number) => ['mapping', 'site', siteId, 'documents'] as const,
    /** The QR code label of an item of the map (its name, context and address may change with the map). */
    label: (itemType: string, itemId: number) => ['mapping', 'label', itemType, itemId] as const,
    cartographyImage: (cartographyId: number) => ['mapping', 'cartography', cartographyId, 'image'] as const,
    zones: (cartographyId: number) => ['mapping', 'cartography', cartographyId, 'zones'] as const,
    pictograms: (cartographyId: number) => ['mapping', 'cartography', cartographyId, 'pictograms'] as const,
    pictogramImage: (cartographyId: number, pictogramId: number) =>
      ['mapping', 'cartography', cartographyId, 'pictograms', pictogramId] as const,
    functions: (cartographyId: number) => ['mapping', 'cartography', cartographyId, 'functions'] as const,
    activities: (cartographyId: number) => ['mapping', 'cartography', cartographyId, 'activities'] as const,
    subActivities: (activityId: number) => ['mapping', 'activity', activityId, 'subActivities'] as const,
    /** The map item picker's search: items of the map and subjects whose name contains the text. */
    itemSearch: (text: string) => ['mapping', 'itemSearch', text] as const,
  },
  subjects: {
    /** Every subject change invalidates this. */
    all: ['subjects'] as const,
    subject: (subjectId: number) => ['subjects', subjectId] as const,
    picture: (subjectId: number) => ['subjects', subjectId, 'picture'] as const,
    /** The subject's mind-map tree; under the subject, so that whatever refreshes the subject refreshes it too. */
    mindMap: (subjectId: number) => ['subjects', subjectId, 'mindMap'] as const,
    functionView: (functionId: number) => ['subjects', 'function', functionId] as const,
    visits: ['subjects', 'visits'] as const,
    list: ['subjects', 'list'] as const,
    criticity: ['subjects', 'criticity'] as const,
  },
  mediations: {
    /** Every mediation change invalidates this. */
    all: ['mediations'] as const,
    list: ['mediations', 'list'] as const,
    /** Mediations found by part of their title (a training path's attach picker); under the list, read again with it. */
    search: (text: string) => ['mediations', 'list', 'search', text] as const,
    mediation: (mediationId: number) => ['mediations', mediationId] as const,
    /** The mediations awaiting something from the user. */
    actionable: ['mediations', 'actionable'] as const,
    /** The history entries of the mediator and participants between two instants, for the report. */
    trackedActions: (mediationId: number, start: string, stop: string) => ['mediations', mediationId, 'trackedActions', start, stop] as const,
    /** The server's check of tracking periods being edited (their JSON text). */
    trackingCheck: (mediationId: number, periods: string) => ['mediations', mediationId, 'trackingCheck', periods] as const,
  },
  references: {
    /** Every reference change invalidates this. */
    all: ['references'] as const,
    list: (type: string) => ['references', type, 'list'] as const,
    reference: (type: string, code: string) => ['references', type, 'reference', code] as const,
    /** The autocomplete: enabled references of a type whose code, label or description contains the text. */
    search: (type: string, text: string) => ['references', type, 'search', text] as const,
  },
  modules: {
    /** Every training module change invalidates this. */
    all: ['modules'] as const,
    list: ['modules', 'list'] as const,
    module: (moduleId: number) => ['modules', moduleId] as const,
  },
  trainingPaths: {
    /** Every training path change invalidates this (lists, cards, the bell's counts read again). */
    all: ['trainingPaths'] as const,
    list: ['trainingPaths', 'list'] as const,
    detail: (pathId: number) => ['trainingPaths', pathId] as const,
    /** The form's module picker: enabled modules whose name contains the text. */
    moduleSearch: (text: string) => ['trainingPaths', 'moduleSearch', text] as const,
  },
  qualifications: {
    /** Every qualification change invalidates this (lists, views, dashboards). */
    all: ['qualifications'] as const,
    list: ['qualifications', 'list'] as const,
    qualification: (qualificationId: number) => ['qualifications', qualificationId] as const,
    /** A qualification's dashboard, by user or by module. */
    dashboard: (qualificationId: number, by: string, shown?: object) => ['qualifications', qualificationId, 'dashboard', by, shown] as const,
    /** The form's module picker: modules whose name contains the text. */
    moduleSearch: (text: string) => ['qualifications', 'moduleSearch', text] as const,
  },
  /** The people and groups pickers: users, then groups, found by part of their name. */
  people: {
    search: (name: string) => ['people', 'search', name] as const,
    groups: (name: string) => ['people', 'groups', name] as const,
  },
  users: {
    /** Every users or groups mutation invalidates this. */
    all: ['users'] as const,
    list: ['users', 'list'] as const,
    groups: ['users', 'groups'] as const,
    /** The API tokens; under users, so that renaming their creator reads them again. */
    apiTokens: ['users', 'apiTokens'] as const,
  },
  notifications: {
    /** The outbox's pages and messages; sending a test message invalidates this. */
    all: ['notifications'] as const,
    /** One page of the outbox, of one status or all. */
    outbox: (status: string, page: number) => ['notifications', 'outbox', status, page] as const,
    message: (messageId: number) => ['notifications', 'message', messageId] as const,
    /** The signed-in person's preferences per kind of message. */
    preferences: ['notifications', 'preferences'] as const,
  },
  history: {
    /** The usage chart's figures of one set of items over one window of periods. */
    contributions: (body: object) => ['history', 'contributions', body] as const,
  },
  dashboards: {
    /** Every dashboard reads figures computed from other areas: opening one asks again. */
    all: ['dashboards'] as const,
    mine: ['dashboards', 'mine'] as const,
    trainingPaths: ['dashboards', 'trainingPath'] as const,
    /** The Dashboard manager's cartographies with their qualification figures. */
    managerCartographies: ['dashboards', 'manager', 'cartographies'] as const,
    groupTrainingPaths: (groupId: number) => ['dashboards', 'trainingPath', 'group', groupId] as const,
    contributions: (body: object) => ['dashboards', 'contributions', body] as const,
    cartographyQualifications: (cartographyId: number, shown?: object) => ['dashboards', 'qualifications', 'cartography', cartographyId, shown] as const,
    /** A cartography's skills matrix with its filters and sort. */
    skillsMatrix: (cartographyId: number, filters?: object) => ['dashboards', 'matrix', cartographyId, filters] as const,
    groupQualifications: (groupId: number, shown?: object) => ['dashboards', 'qualifications', 'group', groupId, shown] as const,
    userQualifications: (userId: number, shown?: object) => ['dashboards', 'qualifications', 'user', userId, shown] as const,
    /** Tomorrow's coverage of a cartography's functions, which its plan colours its zones by. */
    cartographyCoverage: (cartographyId: number) => ['dashboards', 'coverage', 'cartography', cartographyId] as const,
  },
  reports: {
    /** The signed-in user's saved report parameter sets; saving or deleting one invalidates this. */
    configurations: ['reports', 'configurations'] as const,
    defaults: ['reports', 'defaults'] as const,
    /** What the page opens with: the default set, else the defaults; read once per visit. */
    opening: ['reports', 'opening'] as const,
    /** The names of the learners and groups a parameter set chooses. */
    names: (learnerIds: number[], groupIds: number[]) => ['reports', 'names', learnerIds, groupIds] as const,
  },
  jobs: {
    /** The signed-in user's jobs. */
    all: ['jobs'] as const,
    /** One job, with its progress. */
    one: (jobId: number) => ['jobs', jobId] as const,
  },
  resources: {
    /** A gallery's resources; each change invalidates its gallery. */
    gallery: (parentType: string, parentId: number) => ['resources', parentType, parentId] as const,
    /** A stored file or thumbnail, by its address (which names the stored file, so never changes). */
    file: (url: string) => ['resources', 'file', url] as const,
  },
  search: {
    all: ['search'] as const,
    /** The four categories' first results for a text. */
    text: (text: string) => ['search', text] as const,
    /** One category's expanded results for a text. */
    category: (text: string, category: string) => ['search', text, category] as const,
  },
  discussions: {
    /** Posting a message invalidates this (the discussion, and what is unread). */
    all: ['discussions'] as const,
    discussion: (discussionId: number) => ['discussions', discussionId] as const,
    /** The teamwork menu. */
    unread: ['discussions', 'unread'] as const,
  },
  courses: {
    /** Uploading or removing a course invalidates this (the catalogue, the trees, the names). */
    all: ['courses'] as const,
    list: ['courses', 'list'] as const,
    tree: (courseId: number) => ['courses', courseId] as const,
    names: (itemIds: number[]) => ['courses', 'names', itemIds] as const,
  },
  lms: {
    /** The signed-in user's own quiz attempts. */
    myAttempts: ['lms', 'attempts', 'mine'] as const,
    /** What a learner satisfied of a course (units, blocks, the course). */
    satisfaction: (courseId: number, learnerId: number) => ['lms', 'satisfaction', courseId, learnerId] as const,
    /** A unit's statement log, for a learner (or all of them), a page at a time. */
    statements: (itemId: number, learnerId: number | null, page: number) => ['lms', 'statements', itemId, learnerId, page] as const,
    /** The learners with statements in a unit. */
    statementLearners: (itemId: number) => ['lms', 'statements', itemId, 'learners'] as const,
  },
  permission: {
    all: ['permission'] as const,
    names: ['permission', 'names'] as const,
    groups: ['permission', 'groups'] as const,
    cartographiesTree: ['permission', 'cartographiesTree'] as const,
    allowedItems: (groupId: number) => ['permission', 'allowedItems', groupId] as const,
  },
}

/** Whether a query key is this subject's own (its page), rather than a list or count that shows it. */
export const isSubjectKey = (queryKey: readonly unknown[], subjectId: number) =>
  queryKey[0] === queryKeys.subjects.all[0] && queryKey[1] === subjectId
