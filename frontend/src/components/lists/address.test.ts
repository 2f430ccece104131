import { describe, expect, it } from 'vitest'
import { filterOfPath, listPath } from './address'

describe('list addresses', () => {
  it.each([
    'name contains pompe à eau',
    'name contains a/b & code equals 50%',
    'name contains %2F literally',
    'code equals ?#&=',
    'name equals \\0 | name contains \\(x\\)',
  ])('keep the filter %j in one path segment', (filter) => {
    const path = listPath('/subjects', filter)
    expect(path.split('/')).toHaveLength(3)
    expect(filterOfPath(path, '/subjects')).toBe(filter)
  })

  it('have no segment for no filter', () => {
    expect(listPath('/subjects', '')).toBe('/subjects')
    expect(filterOfPath('/subjects', '/subjects')).toBe('')
  })

  it('read a badly encoded segment as it is', () => {
    expect(filterOfPath('/subjects/100%', '/subjects')).toBe('100%')
  })
})
