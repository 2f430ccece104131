import { describe, expect, it } from 'vitest'
import { statusChoices } from './status'

describe('the statuses offered', () => {
  it('include validated only with the right to validate', () => {
    expect(statusChoices('inProgress', true)).toEqual(['toValidate', 'validated'])
    expect(statusChoices('inProgress', false)).toEqual(['toValidate'])
    expect(statusChoices('empty', false)).toEqual(['inProgress', 'toValidate'])
  })

  it('leave a validated node alone without the right to validate', () => {
    expect(statusChoices('validated', false)).toEqual([])
    expect(statusChoices('validated', true)).toEqual(['inProgress', 'toValidate'])
  })
})
