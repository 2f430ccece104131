import { data } from './client'

/**
 * An image of the API as a data URL: the server reads the session from a header only, so an
 * <img> cannot fetch it directly; a data URL also serves the PDF export as it is.
 */
export async function imageDataUrl(image: Promise<{ data?: Blob }>): Promise<string> {
  const blob = await data(image)
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(reader.result as string)
    reader.onerror = () => reject(reader.error ?? new Error('could not load image'))
    reader.readAsDataURL(blob)
  })
}
