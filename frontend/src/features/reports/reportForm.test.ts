import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import {
  formFieldOf,
  formFromRequest,
  isPngOrJpeg,
  MAX_IMAGE_BYTES,
  readSignatureImage,
  type ReportForm,
  reportSchema,
  requestFromForm,
  shownName,
} from './reportForm'
import { DEFAULTS } from './testData'

const TEXTS = { documentTitle: 'Training paths report', managerSignatureLabel: 'Manager' }

const validForm = (patch: Partial<ReportForm> = {}): ReportForm => ({
  ...formFromRequest(DEFAULTS, { learners: [], groups: [] }, TEXTS),
  learners: [{ id: 4, name: 'Léa Petit' }],
  ...patch,
})

/** The message keys of the rules the form breaks, by field. */
function problems(form: ReportForm): Record<string, string> {
  const result = reportSchema.safeParse(form)
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]))
}

describe('the report rules (spec 2 §5 Report)', () => {
  it('accepts the defaults with a learner', () => {
    expect(problems(validForm())).toEqual({})
  })

  it('needs a learner or a group', () => {
    expect(problems(validForm({ learners: [] }))).toEqual({ learners: 'defineAtLeastOneLearnerOrGroup' })
    expect(problems(validForm({ learners: [], groups: [{ id: 2, name: 'Opérateurs' }] }))).toEqual({})
  })

  it('needs a path status, a module status and a module type', () => {
    expect(problems(validForm({ pathStatutes: [], moduleStatutes: [], moduleTypes: [] }))).toEqual({
      pathStatutes: 'selectAtLeastOneStatus',
      moduleStatutes: 'selectAtLeastOneStatus',
      moduleTypes: 'selectAtLeastOneType',
    })
  })

  it('needs both days, readable, the stop not before the start', () => {
    expect(problems(validForm({ start: null, stop: dayjs('not a date') }))).toEqual({ start: 'emptyFieldError', stop: 'errors.parse' })
    expect(problems(validForm({ start: dayjs('2026-05-02'), stop: dayjs('2026-05-01') }))).toEqual({ stop: 'dateRangeReversed' })
    expect(problems(validForm({ start: dayjs('2026-05-02'), stop: dayjs('2026-05-02') }))).toEqual({})
  })

  it('applies the general text rule to the title, and to the label when its box is printed', () => {
    expect(problems(validForm({ documentTitle: '' }))).toEqual({ documentTitle: 'emptyFieldError' })
    expect(problems(validForm({ documentTitle: ' Report' }))).toEqual({ documentTitle: 'beginEndWhitespaceError' })
    expect(problems(validForm({ managerSignatureLabel: '' }))).toEqual({ managerSignatureLabel: 'emptyFieldError' })
    expect(problems(validForm({ managerSignatureLabel: 'Manager ' }))).toEqual({ managerSignatureLabel: 'beginEndWhitespaceError' })
    expect(problems(validForm({ managerSignature: false, managerSignatureLabel: '' }))).toEqual({})
  })

  it('reports every broken rule at once', () => {
    expect(Object.keys(problems(validForm({ learners: [], documentTitle: '', moduleTypes: [] }))).sort()).toEqual(['documentTitle', 'learners', 'moduleTypes'])
  })
})

describe('the parameters sent', () => {
  it('round-trips the defaults, empty texts taking the translated defaults', () => {
    const form = formFromRequest(DEFAULTS, { learners: [], groups: [] }, TEXTS)
    expect(form.documentTitle).toBe('Training paths report')
    expect(form.managerSignatureLabel).toBe('Manager')
    expect(requestFromForm(form)).toEqual({ ...DEFAULTS, documentOptions: { ...DEFAULTS.documentOptions, documentTitle: 'Training paths report', managerSignatureLabel: 'Manager' } })
  })

  it('names the chosen learners and groups, leaving out those gone', () => {
    const request = { ...DEFAULTS, selectors: { ...DEFAULTS.selectors, learnerIdList: [4, 99], groupIdList: [2] } }
    const form = formFromRequest(request, { learners: [{ id: 4, name: 'Léa Petit' }], groups: [{ id: 2, name: 'Opérateurs' }] }, TEXTS)
    expect(form.learners).toEqual([{ id: 4, name: 'Léa Petit' }])
    expect(form.groups).toEqual([{ id: 2, name: 'Opérateurs' }])
    expect(requestFromForm(form).selectors).toMatchObject({ learnerIdList: [4], groupIdList: [2] })
  })

  it('keeps the statuses in the order of the page, whatever the order they were ticked in', () => {
    const form = validForm({ pathStatutes: ['canceled', 'accepted'], moduleTypes: ['other', 'training'] })
    expect(requestFromForm(form).selectors).toMatchObject({ pathStatutes: ['accepted', 'canceled'], moduleTypes: ['training', 'other'] })
  })

  it('prints the mediators only with the mediations', () => {
    const options = (mediations: boolean) => validForm({ moduleOptions: { ...DEFAULTS.moduleOptions, mediations, mediators: true } })
    expect(requestFromForm(options(true)).moduleOptions.mediators).toBe(true)
    expect(requestFromForm(options(false)).moduleOptions.mediators).toBe(false)
  })
})

describe('formFieldOf', () => {
  it.each([
    ['selectors.learnerIdList', 'learners'],
    ['selectors.learnerIdList[1]', 'learners'],
    ['selectors.groupIdList.0', 'groups'],
    ['selectors.stop', 'stop'],
    ['selectors.moduleTypes', 'moduleTypes'],
    ['documentOptions.documentTitle', 'documentTitle'],
    ['documentOptions.signatureImage', 'signatureImage'],
    ['pathOptions.reference', undefined],
    ['name', undefined],
  ])('shows %s on %s', (payload, field) => {
    expect(formFieldOf(payload)).toBe(field)
  })
})

describe('shownName', () => {
  it('cuts names after 25 characters (spec 2 §9)', () => {
    expect(shownName('Opérateurs de Lyon 2026')).toBe('Opérateurs de Lyon 2026')
    expect(shownName('a'.repeat(25))).toBe('a'.repeat(25))
    expect(shownName('Rapport annuel des opérateurs de Lyon')).toBe('Rapport annuel des opérat…')
  })
})

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const JPEG_HEAD = [0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]
const GIF_HEAD = [...'GIF89a'].map((char) => char.charCodeAt(0))

describe('the signature image', () => {
  it('is a PNG or a JPEG by its first bytes', () => {
    expect(isPngOrJpeg(new Uint8Array(PNG_HEAD))).toBe(true)
    expect(isPngOrJpeg(new Uint8Array(JPEG_HEAD))).toBe(true)
    expect(isPngOrJpeg(new Uint8Array(GIF_HEAD))).toBe(false)
    expect(isPngOrJpeg(new Uint8Array([]))).toBe(false)
  })

  it('is read as a data URL of its real type, whatever the name says', async () => {
    const file = new File([new Uint8Array([...PNG_HEAD, 1, 2, 3])], 'signature.jpg', { type: 'image/jpeg' })
    const url = await readSignatureImage(file)
    expect(url.startsWith('data:image/png;base64,')).toBe(true)
    expect(atob(url.split(',')[1]).charCodeAt(1)).toBe(0x50)
  })

  it('refuses another format (badFileFormat) and a file too big (fileTooBig)', async () => {
    await expect(readSignatureImage(new File([new Uint8Array(GIF_HEAD)], 'signature.png', { type: 'image/png' }))).rejects.toThrow('badFileFormat')
    const big = new File([new Uint8Array(JPEG_HEAD), new Uint8Array(MAX_IMAGE_BYTES)], 'big.jpg', { type: 'image/jpeg' })
    await expect(readSignatureImage(big)).rejects.toThrow('fileTooBig')
  })
})
