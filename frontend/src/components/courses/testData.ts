import type { CourseCard, CourseGroup } from './api'

/** What a training manager may do with each course (GET /lms/courses' `can`); others may do none of it. */
export const MANAGES = { remove: true, waive: true, readStatements: true }
export const READS = { remove: false, waive: false, readStatements: false }

/** A course as GET /lms/courses/{id} answers it: the root is the course (its id is the course's), then a block and two units. */
export const CONSIGNATION: CourseGroup = {
  id: 3,
  type: 'group',
  name: 'Consignation',
  description: 'Lockout–tagout basics',
  children: [
    {
      id: 10,
      type: 'group',
      name: 'Bases',
      description: '',
      children: [{ id: 11, type: 'resource', name: 'Les six étapes', description: 'Read before the quiz', masteryScore: null }],
    },
    { id: 12, type: 'quiz', name: 'Quiz final', description: 'Ten questions', masteryScore: 0.8 },
  ],
}

export const COURSES: CourseCard[] = [
  { id: 3, title: 'Consignation', description: 'Lockout–tagout basics', resources: 1, quizzes: 1, importedAt: '2026-11-20T09:00:00Z', standard: 'cmi5', can: MANAGES },
  { id: 4, title: 'Gestes et postures', description: '', resources: 2, quizzes: 0, importedAt: '2026-11-21T09:00:00Z', standard: 'cmi5', can: MANAGES },
]
