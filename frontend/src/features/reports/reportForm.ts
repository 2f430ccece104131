import dayjs, { type Dayjs } from 'dayjs'
import { z } from 'zod'
import { EMPTY_FIELD, optionalText, text } from '../../lib/text'
import type { ModuleOptions, ModuleStatus, ModuleType, PathOptions, PathStatus, ReportRequest } from './api'

/** Message keys of the report rules (spec 2 §5 Report, §8), shared with the server's error codes. */
export const DEFINE_LEARNER = 'defineAtLeastOneLearnerOrGroup'
export const SELECT_STATUS = 'selectAtLeastOneStatus'
export const SELECT_TYPE = 'selectAtLeastOneType'
export const DATE_RANGE_REVERSED = 'dateRangeReversed'
export const BAD_FILE_FORMAT = 'badFileFormat'
export const FILE_UPLOAD_ERROR = 'fileUploadError'
export const FILE_TOO_BIG = 'fileTooBig'
export const PARSE = 'errors.parse'

/** Saved parameter set names are shown cut to this many characters (spec 2 §9), whole in a tooltip. */
export const SHOWN_NAME_LENGTH = 25
export const MAX_NAME_LENGTH = 200
/** The signature image's largest size, decoded (the server refuses more: fileTooBig). */
export const MAX_IMAGE_BYTES = 1_000_000

export const PATH_STATUSES: readonly PathStatus[] = ['notAccepted', 'accepted', 'started', 'finished', 'validated', 'archived', 'canceled']
export const MODULE_STATUSES: readonly ModuleStatus[] = ['notStarted', 'started', 'finished', 'validated', 'archived', 'disabled']
export const MODULE_TYPES: readonly ModuleType[] = ['training', 'qualification', 'other']
export const PATH_OPTIONS: readonly (keyof PathOptions)[] = ['reference', 'dates', 'status', 'creator', 'validation', 'signature', 'completion', 'averageGrade', 'duration']
export const MODULE_OPTIONS: readonly (keyof ModuleOptions)[] = [
  'reference',
  'goals',
  'referents',
  'dates',
  'status',
  'grades',
  'comments',
  'signatures',
  'mediations',
  'mediators',
  'results',
]

/** A learner or a group, as the pickers show and hold it. */
export interface Named {
  id: number
  name: string
}

export interface ReportForm {
  start: Dayjs | null
  stop: Dayjs | null
  learners: Named[]
  groups: Named[]
  pathStatutes: PathStatus[]
  moduleStatutes: ModuleStatus[]
  moduleTypes: ModuleType[]
  documentTitle: string
  displayExternalIds: boolean
  learnerSignature: boolean
  managerSignature: boolean
  managerSignatureLabel: string
  /** A data URL of a PNG or a JPEG, or null. */
  signatureImage: string | null
  pathOptions: PathOptions
  moduleOptions: ModuleOptions
}

/** What the form writes when the parameters leave a text empty: the translated defaults. */
export interface TextDefaults {
  documentTitle: string
  managerSignatureLabel: string
}

const validDay = (value: Dayjs | null): value is Dayjs => value !== null && value.isValid()

/**
 * The report's rules (spec 2 §5 Report): a period whose stop is not before its start; at least one
 * learner or group; at least one path status, module status and module type; the document title (and,
 * when its box is printed, the manager's signature label) not empty and without whitespace at either end.
 */
export const reportSchema = z
  .object({ documentTitle: text(), managerSignatureLabel: optionalText() })
  .passthrough()
  .superRefine((raw, ctx) => {
    const form = raw as unknown as ReportForm
    const issue = (path: string[], message: string) => ctx.addIssue({ code: 'custom', path, message })
    for (const field of ['start', 'stop'] as const) {
      const value = form[field]
      if (value === null) issue([field], EMPTY_FIELD)
      else if (!value.isValid()) issue([field], PARSE)
    }
    if (validDay(form.start) && validDay(form.stop) && form.stop.isBefore(form.start, 'day')) issue(['stop'], DATE_RANGE_REVERSED)
    if (form.learners.length === 0 && form.groups.length === 0) issue(['learners'], DEFINE_LEARNER)
    if (form.pathStatutes.length === 0) issue(['pathStatutes'], SELECT_STATUS)
    if (form.moduleStatutes.length === 0) issue(['moduleStatutes'], SELECT_STATUS)
    if (form.moduleTypes.length === 0) issue(['moduleTypes'], SELECT_TYPE)
    if (form.managerSignature && form.managerSignatureLabel.trim() === '') issue(['managerSignatureLabel'], EMPTY_FIELD)
  })

/**
 * The form of some parameters (the server's defaults or a saved set), the learners and groups named;
 * an empty title or label takes the translated default.
 */
export function formFromRequest(request: ReportRequest, names: { learners: Named[]; groups: Named[] }, defaults: TextDefaults): ReportForm {
  const { selectors, documentOptions } = request
  const named = (ids: number[], known: Named[]) => ids.flatMap((id) => known.filter((item) => item.id === id))
  return {
    start: dayjs(selectors.start),
    stop: dayjs(selectors.stop),
    learners: named(selectors.learnerIdList, names.learners),
    groups: named(selectors.groupIdList, names.groups),
    pathStatutes: [...selectors.pathStatutes],
    moduleStatutes: [...selectors.moduleStatutes],
    moduleTypes: [...selectors.moduleTypes],
    documentTitle: documentOptions.documentTitle || defaults.documentTitle,
    displayExternalIds: documentOptions.displayExternalIds,
    learnerSignature: documentOptions.learnerSignature,
    managerSignature: documentOptions.managerSignature,
    managerSignatureLabel: documentOptions.managerSignatureLabel || defaults.managerSignatureLabel,
    signatureImage: documentOptions.signatureImage ?? null,
    pathOptions: { ...request.pathOptions },
    moduleOptions: { ...request.moduleOptions },
  }
}

const day = (value: Dayjs | null) => (value?.isValid() ? value.format('YYYY-MM-DD') : '')

/** Lists in the order the page shows their choices, whatever the order they were ticked in. */
const ordered = <T>(chosen: T[], all: readonly T[]) => all.filter((value) => chosen.includes(value))

/** The parameters the server receives (ids only; mediators only when mediations are printed). */
export function requestFromForm(form: ReportForm): ReportRequest {
  return {
    selectors: {
      start: day(form.start),
      stop: day(form.stop),
      learnerIdList: form.learners.map((learner) => learner.id),
      groupIdList: form.groups.map((group) => group.id),
      pathStatutes: ordered(form.pathStatutes, PATH_STATUSES),
      moduleStatutes: ordered(form.moduleStatutes, MODULE_STATUSES),
      moduleTypes: ordered(form.moduleTypes, MODULE_TYPES),
    },
    documentOptions: {
      documentTitle: form.documentTitle,
      displayExternalIds: form.displayExternalIds,
      learnerSignature: form.learnerSignature,
      managerSignature: form.managerSignature,
      managerSignatureLabel: form.managerSignatureLabel,
      signatureImage: form.signatureImage,
    },
    pathOptions: { ...form.pathOptions },
    moduleOptions: { ...form.moduleOptions, mediators: form.moduleOptions.mediations && form.moduleOptions.mediators },
  }
}

export type FormField =
  | 'start'
  | 'stop'
  | 'learners'
  | 'groups'
  | 'pathStatutes'
  | 'moduleStatutes'
  | 'moduleTypes'
  | 'documentTitle'
  | 'displayExternalIds'
  | 'learnerSignature'
  | 'managerSignature'
  | 'managerSignatureLabel'
  | 'signatureImage'

const SELECTOR_FIELDS: Record<string, FormField> = {
  start: 'start',
  stop: 'stop',
  learnerIdList: 'learners',
  groupIdList: 'groups',
  pathStatutes: 'pathStatutes',
  moduleStatutes: 'moduleStatutes',
  moduleTypes: 'moduleTypes',
}
const DOCUMENT_FIELDS: FormField[] = ['documentTitle', 'displayExternalIds', 'learnerSignature', 'managerSignature', 'managerSignatureLabel', 'signatureImage']

/** The form field where a server error on a payload field is shown (selectors.learnerIdList[2] on the learners). */
export function formFieldOf(payloadField: string): FormField | undefined {
  const [part, name] = payloadField.split(/[.[]/)
  if (part === 'selectors') return SELECTOR_FIELDS[name]
  if (part === 'documentOptions') return DOCUMENT_FIELDS.find((field) => field === name)
  return undefined
}

/** A saved set's name as the menu shows it: its first 25 characters, an ellipsis when it is longer. */
export function shownName(name: string): string {
  return name.length > SHOWN_NAME_LENGTH ? `${name.slice(0, SHOWN_NAME_LENGTH)}…` : name
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const JPEG = [0xff, 0xd8, 0xff]

/** Whether the first bytes of a file are those of a PNG or a JPEG (what the browser guessed from its name is not enough). */
export function isPngOrJpeg(head: Uint8Array): boolean {
  const startsWith = (signature: number[]) => signature.every((byte, index) => head[index] === byte)
  return startsWith(PNG) || startsWith(JPEG)
}

/** A failure to take a signature image, with the message key to show. */
export class ImageRefused extends Error {}

/** The signature image as a data URL; refused (badFileFormat, fileTooBig, fileUploadError) before anything is sent. */
export async function readSignatureImage(file: Blob): Promise<string> {
  let head: Uint8Array
  try {
    head = new Uint8Array(await file.slice(0, 8).arrayBuffer())
  } catch {
    throw new ImageRefused(FILE_UPLOAD_ERROR)
  }
  if (!isPngOrJpeg(head)) throw new ImageRefused(BAD_FILE_FORMAT)
  if (file.size > MAX_IMAGE_BYTES) throw new ImageRefused(FILE_TOO_BIG)
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^;,]*/, head[0] === PNG[0] ? 'data:image/png' : 'data:image/jpeg'))
    reader.onerror = () => reject(new ImageRefused(FILE_UPLOAD_ERROR))
    reader.readAsDataURL(file)
  })
}
