import { describe, expect, it } from 'vitest'
import { optionalText, text } from './text'

function messages(result: { success: boolean; error?: { issues: { message: string }[] } }): string[] {
  return result.error?.issues.map((issue) => issue.message) ?? []
}

describe('general text rule', () => {
  it('accepts a trimmed, non-empty text', () => {
    expect(text().safeParse('Atelier').success).toBe(true)
    expect(text().safeParse('Atelier de Lyon').success).toBe(true)
  })

  it('refuses an empty or blank text with emptyFieldError', () => {
    expect(messages(text().safeParse(''))).toEqual(['emptyFieldError'])
    expect(messages(text().safeParse('   '))).toEqual(['emptyFieldError'])
  })

  it('refuses leading or trailing whitespace with beginEndWhitespaceError', () => {
    expect(messages(text().safeParse(' Atelier'))).toEqual(['beginEndWhitespaceError'])
    expect(messages(text().safeParse('Atelier\t'))).toEqual(['beginEndWhitespaceError'])
  })

  it('lets an optional text stay empty but not blank or padded', () => {
    expect(optionalText().safeParse('').success).toBe(true)
    expect(messages(optionalText().safeParse('  '))).toEqual(['beginEndWhitespaceError'])
    expect(messages(optionalText().safeParse('Jean '))).toEqual(['beginEndWhitespaceError'])
  })
})
