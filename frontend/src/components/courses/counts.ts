import type { TFunction } from 'i18next'
import type { CourseCard } from './api'

/** "2 resources · 1 quiz": what a course holds, as the catalogue and the picker show it. */
export function courseCounts(t: TFunction, course: Pick<CourseCard, 'resources' | 'quizzes'>): string {
  return `${t('courses.resourceCount', { count: course.resources })} · ${t('courses.quizCount', { count: course.quizzes })}`
}
