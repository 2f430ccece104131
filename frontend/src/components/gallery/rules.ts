import { z } from 'zod'
import { optionalText, text } from '../../lib/text'

/** The kinds of resource (spec 1 §3); the first three are uploaded files. */
export const RESOURCE_TYPES = ['image', 'pdf', 'file', 'link', 'youtube'] as const
export type ResourceType = (typeof RESOURCE_TYPES)[number]
export const isFileType = (type: ResourceType) => type === 'image' || type === 'pdf' || type === 'file'

/** Message keys of the resource rules (spec 1 §5), the server's codes as well. */
export const URL_MUST_BEGIN_BY = 'urlMustBeginBy'
export const NOT_VALID_YOUTUBE_URL = 'notValidYoutubeUrl'
export const BAD_FILE_FORMAT = 'badFileFormat'
export const FILE_TOO_BIG = 'fileTooBig'
export const FILE_REQUIRED = 'emptyFieldError'

export const MAX_FILE_BYTES = 30_000_000
export const THUMBNAIL_WIDTH = 160
export const THUMBNAIL_HEIGHT = 100

const NAME_CUT_AT = 22
const NAME_KEPT = 19

/** A name of 22 characters or more shows its first 19 and an ellipsis (spec 1 §9). */
export function shortName(name: string): string {
  const characters = Array.from(name)
  return characters.length >= NAME_CUT_AT ? `${characters.slice(0, NAME_KEPT).join('')}…` : name
}

/** The carousel takes 90 % of the window's height above 700 px, else 85 % (spec 1 §9). */
export function carouselHeight(windowHeight: number): number {
  return Math.round(windowHeight * (windowHeight > 700 ? 0.9 : 0.85))
}

// The watch, embed, shorts and youtu.be forms; the id is 10 to 20 word characters or dashes, as on the server.
const YOUTUBE =
  /^https?:\/\/(?:(?:www|m)\.)?(?:youtube(?:-nocookie)?\.com\/(?:watch\?(?:[^#]*&)?v=|embed\/|shorts\/)|youtu\.be\/)([\w-]{10,20})(?:[?&#/][\s\S]*)?$/

/** The video id of a YouTube address in one of the accepted forms, else undefined. */
export function youtubeId(address: string): string | undefined {
  return YOUTUBE.exec(address)?.[1]
}

/** The address the form shows for a stored video id. */
export const youtubeWatchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`
export const youtubeEmbedUrl = (videoId: string) => `https://www.youtube-nocookie.com/embed/${videoId}`

/** The file's media types accepted for an image and a pdf (the server judges the bytes too). */
const ACCEPTED: Partial<Record<ResourceType, string[]>> = {
  image: ['image/jpeg', 'image/png'],
  pdf: ['application/pdf'],
}

/** What the file picker offers for a type. */
export const acceptedFiles = (type: ResourceType) => ACCEPTED[type]?.join(',')

/**
 * The resource form (spec 1 §5): name and link under the general text rule; a link starts with
 * http:// or https://; a YouTube address in one of its forms; a file on add for an image, pdf or file,
 * of an accepted type and at most 30,000,000 bytes. For a file the link is the file's name.
 */
export const resourceSchema = z
  .object({
    id: z.number().optional(),
    resourceType: z.enum(RESOURCE_TYPES),
    name: text(),
    link: z.string(),
    comment: optionalText(),
    file: z.instanceof(File).nullable(),
  })
  .superRefine((form, ctx) => {
    const issue = (path: 'link' | 'file', message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
    if (isFileType(form.resourceType)) {
      if (form.id !== undefined) return
      if (form.file === null) return issue('file', FILE_REQUIRED)
      const accepted = ACCEPTED[form.resourceType]
      if (accepted && !accepted.includes(form.file.type)) return issue('file', BAD_FILE_FORMAT)
      if (form.file.size > MAX_FILE_BYTES) return issue('file', FILE_TOO_BIG)
      return
    }
    const link = text().safeParse(form.link)
    if (!link.success) return issue('link', link.error.issues[0]?.message ?? FILE_REQUIRED)
    if (form.resourceType === 'link' && !/^https?:\/\//.test(form.link)) return issue('link', URL_MUST_BEGIN_BY)
    if (form.resourceType === 'youtube' && youtubeId(form.link) === undefined) return issue('link', NOT_VALID_YOUTUBE_URL)
  })

export type ResourceForm = z.infer<typeof resourceSchema>
