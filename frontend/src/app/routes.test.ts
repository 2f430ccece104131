import { isValidElement } from 'react'
import type { RouteObject } from 'react-router'
import { describe, expect, it } from 'vitest'
import { RequirePermission } from '../components/RequirePermission'
import { NEW_SUBJECT_PATH, START_MEDIATION_PATH, TRAINING_MODULES_PATH, USERS_PATH } from '../lib/paths'
import { mayOpen, PAGE_PERMISSIONS } from '../lib/routes'
import { routes } from './router'

/** Every page pattern of the router ('/' + its path), with whether a permission guard wraps it. */
function pages(children: RouteObject[], guarded = false): [string, boolean][] {
  return children.flatMap((route) => {
    const underGuard = guarded || (isValidElement(route.element) && route.element.type === RequirePermission)
    const own: [string, boolean][] = route.path && route.path !== '*' ? [[`/${route.path}`, underGuard]] : []
    return [...own, ...pages(route.children ?? [], underGuard)]
  })
}

describe('the page permissions of lib/routes.ts', () => {
  const all = pages(routes)
  const registered = new Set(PAGE_PERMISSIONS.map(({ pattern }) => pattern))

  it('list every page behind a guard, and only those', () => {
    expect(all.filter(([, guarded]) => guarded).map(([pattern]) => pattern).sort()).toEqual([...registered].sort())
  })

  it('are told from the addresses of lib/paths.ts', () => {
    const manager = { permissions: ['perm_TrainingManagement'] }
    expect(mayOpen(manager, TRAINING_MODULES_PATH)).toBe(true)
    expect(mayOpen(manager, NEW_SUBJECT_PATH)).toBe(false)
    expect(mayOpen(manager, USERS_PATH)).toBe(false)
    expect(mayOpen({ permissions: [] }, START_MEDIATION_PATH)).toBe(true)
    expect(mayOpen(undefined, START_MEDIATION_PATH)).toBe(false)
  })
})
