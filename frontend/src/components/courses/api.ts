import { queryOptions } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'

type Schemas = components['schemas']
/** A course of the catalogue, with how many resources and quizzes it holds. */
export type CourseCard = Schemas['CourseCard']
/** A course's tree: the course itself (the root, with the course's id) and its blocks are groups. */
export type CourseGroup = Schemas['TreeGroup']
/** A resource, or a quiz when the unit is assessed; its masteryScore is the scaled score (0 to 1) that passes. */
export type CourseLeaf = Schemas['TreeLeaf']
export type CourseNode = CourseGroup | CourseLeaf
/** An element named with its course, for a module's element. */
export type CourseItemName = Schemas['ItemName']

/** The kinds of element a course holds; only resources and quizzes are launched or picked. */
export type CourseItemType = CourseNode['type']
export type LeafType = Exclude<CourseItemType, 'group'>

export const isLeaf = (type: CourseItemType): type is LeafType => type !== 'group'

export const coursesQuery = queryOptions({
  queryKey: queryKeys.courses.list,
  queryFn: () => data(api.GET('/backend/api/v2/lms/courses')),
})

/** One course's tree; a removed or unknown course (404) is shown by the tree as lmsElementNotFound. */
export const courseTreeQuery = (courseId: number) =>
  queryOptions({
    queryKey: queryKeys.courses.tree(courseId),
    queryFn: () => data(api.GET('/backend/api/v2/lms/courses/{courseId}', { params: { path: { courseId } } })),
    meta: { handledStatuses: [404] },
  })

/** The names of resources and quizzes by id; removed or unknown ones are left out of the answer. */
export const courseItemNamesQuery = (ids: number[]) =>
  queryOptions({
    queryKey: queryKeys.courses.names(ids),
    queryFn: () => (ids.length === 0 ? Promise.resolve([]) : data(api.POST('/backend/api/v2/lms/items/names', { body: ids }))),
  })
