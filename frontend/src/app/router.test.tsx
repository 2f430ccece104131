import { createMemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import { storeToken } from '../lib/session'
import { requireSession, routes } from './router'

function guardOutcome(url: string): Response | null {
  try {
    return requireSession({ request: new Request(url), params: {}, context: undefined, unstable_pattern: '' } as never)
  } catch (thrown) {
    return thrown as Response
  }
}

async function settledLocation(entry: string) {
  const router = createMemoryRouter(routes, { basename: '/spotv2', initialEntries: [entry] })
  await new Promise<void>((resolve) => {
    if (router.state.initialized && router.state.navigation.state === 'idle') resolve()
    router.subscribe((state) => {
      if (state.initialized && state.navigation.state === 'idle') resolve()
    })
  })
  const { pathname, search } = router.state.location
  router.dispose()
  return pathname + search
}

describe('route guard', () => {
  it('redirects a visitor without session to Login with returnUrl and the original query', () => {
    const outcome = guardOutcome('http://localhost:3000/spotv2/administration/users?tab=groups')
    expect(outcome).toBeInstanceOf(Response)
    expect(outcome?.status).toBe(302)
    expect(outcome?.headers.get('Location')).toBe('/login?returnUrl=/spotv2/administration/users&tab=groups')
  })

  it('lets a signed-in user through', () => {
    storeToken('token')
    expect(guardOutcome('http://localhost:3000/spotv2/administration/users')).toBeNull()
  })

  it('ends on the Login route of the application, under its base path', async () => {
    expect(await settledLocation('/spotv2/unknown/page?x=1')).toBe('/spotv2/login?returnUrl=/spotv2/unknown/page&x=1')
  })

  it('does not guard Login itself', async () => {
    expect(await settledLocation('/spotv2/login?returnUrl=/spotv2/')).toBe('/spotv2/login?returnUrl=/spotv2/')
  })
})
