import { describe, expect, it } from 'vitest'
import { loginPathFor } from '../../lib/paths'
import { loginTarget } from './target'

const ORIGIN = 'https://spot.example.com'

/** Where Login leads from the address the route guard sends a signed-out visitor of `pathname` to. */
function afterGuard(pathname: string): string {
  const login = new URL(loginPathFor(pathname), ORIGIN)
  return loginTarget(login.searchParams, ORIGIN)
}

const targetOf = (returnUrl: string) => loginTarget(new URLSearchParams({ returnUrl }), ORIGIN)

describe('the return address of Login', () => {
  it.each([
    '/spotv2/function/12',
    '/spotv2/subject/34',
    '/spotv2/cartography/5',
    // An activity's label: the subject list filtered on it, the filter one encoded segment.
    `/spotv2/subjects/${encodeURIComponent('location oneOf 42')}`,
  ])('brings back to the page a QR code opened (%s)', (pathname) => {
    expect(afterGuard(pathname)).toBe(pathname)
  })

  it('keeps the other query parameters', () => {
    expect(loginTarget(new URLSearchParams({ returnUrl: '/spotv2/subjects', sorting: 'name' }), ORIGIN)).toBe('/spotv2/subjects?sorting=name')
  })

  it.each([
    'https://evil.example/spotv2/',
    '//evil.example/spotv2/',
    '/\\evil.example',
    '/\t/evil.example',
    '/\t/evil.example//spotv2/x',
    '/\n/evil.example/spotv2/',
    '/spotv2/../..//evil.example',
    '/spotv2/x/..//evil.example',
    '/spotv2//evil.example',
    '/other/page',
    'javascript:alert(1)',
  ])('never leads off the application (%j)', (returnUrl) => {
    expect(targetOf(returnUrl)).toBe('/spotv2/')
  })
})
