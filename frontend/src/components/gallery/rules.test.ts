import { describe, expect, it } from 'vitest'
import { carouselHeight, MAX_FILE_BYTES, resourceSchema, shortName, youtubeId } from './rules'

const issues = (form: Record<string, unknown>) => {
  const result = resourceSchema.safeParse({ resourceType: 'link', name: 'Nom', link: '', comment: '', file: null, ...form })
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message])
}

const fileOf = (size: number, type: string, name = 'f') => {
  const file = new File(['x'], name, { type })
  Object.defineProperty(file, 'size', { value: size })
  return file
}

describe('names in the gallery', () => {
  it('cuts a name of 22 characters or more to its first 19 and an ellipsis', () => {
    expect(shortName('123456789012345678901')).toBe('123456789012345678901')
    expect(shortName('1234567890123456789012')).toBe('1234567890123456789…')
    expect(shortName('Procédure de sécurité électrique')).toBe('Procédure de sécuri…')
    expect(shortName('')).toBe('')
  })

  it('counts characters, not UTF-16 units', () => {
    expect(shortName('🔧'.repeat(21))).toBe('🔧'.repeat(21))
    expect(shortName('🔧'.repeat(22))).toBe(`${'🔧'.repeat(19)}…`)
  })
})

describe('the carousel height', () => {
  it('is 90 % of the window above 700 px and 85 % otherwise', () => {
    expect(carouselHeight(1000)).toBe(900)
    expect(carouselHeight(701)).toBe(631)
    expect(carouselHeight(700)).toBe(595)
    expect(carouselHeight(600)).toBe(510)
  })
})

describe('YouTube addresses', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=4', 'dQw4w9WgXcQ'],
    ['http://m.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=3', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/abc-DEF_12', 'abc-DEF_12'],
    ['https://youtu.be/a1b2c3d4e5f6g7h8i9j0?si=x', 'a1b2c3d4e5f6g7h8i9j0'],
  ])('finds the id in %s', (address, id) => {
    expect(youtubeId(address)).toBe(id)
  })

  it.each([
    'https://youtu.be/short1234',
    'https://youtu.be/a1b2c3d4e5f6g7h8i9j0k',
    'https://vimeo.com/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com/playlist?list=dQw4w9WgXcQ',
    'youtube.com/watch?v=dQw4w9WgXcQ',
    'dQw4w9WgXcQ',
  ])('refuses %s', (address) => {
    expect(youtubeId(address)).toBeUndefined()
    expect(issues({ resourceType: 'youtube', link: address })).toEqual([['link', 'notValidYoutubeUrl']])
  })
})

describe('the resource form', () => {
  it('wants a link starting with http:// or https://', () => {
    expect(issues({ link: 'https://example.org' })).toEqual([])
    expect(issues({ link: 'http://example.org' })).toEqual([])
    expect(issues({ link: 'ftp://example.org' })).toEqual([['link', 'urlMustBeginBy']])
    expect(issues({ link: 'www.example.org' })).toEqual([['link', 'urlMustBeginBy']])
  })

  it('applies the general text rule to name and link', () => {
    expect(issues({ name: '', link: 'https://a.b' })).toEqual([['name', 'emptyFieldError']])
    expect(issues({ name: ' Nom', link: 'https://a.b' })).toEqual([['name', 'beginEndWhitespaceError']])
    expect(issues({ link: '' })).toEqual([['link', 'emptyFieldError']])
    expect(issues({ link: 'https://a.b ' })).toEqual([['link', 'beginEndWhitespaceError']])
  })

  it('wants a file on add, of the right type and at most 30,000,000 bytes', () => {
    expect(issues({ resourceType: 'pdf' })).toEqual([['file', 'emptyFieldError']])
    expect(issues({ resourceType: 'pdf', file: fileOf(10, 'image/png') })).toEqual([['file', 'badFileFormat']])
    expect(issues({ resourceType: 'image', file: fileOf(10, 'image/gif') })).toEqual([['file', 'badFileFormat']])
    expect(issues({ resourceType: 'image', file: fileOf(10, 'image/jpeg') })).toEqual([])
    expect(issues({ resourceType: 'file', file: fileOf(MAX_FILE_BYTES, '') })).toEqual([])
    expect(issues({ resourceType: 'file', file: fileOf(MAX_FILE_BYTES + 1, '') })).toEqual([['file', 'fileTooBig']])
  })

  it('keeps the stored file on edit', () => {
    expect(issues({ id: 4, resourceType: 'pdf', link: 'notice.pdf' })).toEqual([])
  })
})
