/**
 * Downloads of files the server produces (Excel exports, zips of PDFs, the audit pack): the answer is read
 * as a blob and saved as the browser saves a download, under the name the server gave.
 */

/** Saves a file the server produced, as the browser saves a download. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = name
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  URL.revokeObjectURL(url)
}

/** The file name a Content-Disposition header gives (`filename*` first, then `filename`), else `fallback`. */
export function dispositionName(header: string | null, fallback: string): string {
  if (!header) return fallback
  const encoded = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header)
  if (encoded) {
    try {
      const name = decodeURIComponent(encoded[2].trim().replace(/^"(.*)"$/, '$1'))
      if (name) return name
    } catch {
      // A badly encoded name falls back to the plain one.
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header)
  const name = plain ? (plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1].trim()) : ''
  return name || fallback
}

/** An API call made with `parseAs: 'blob'`: failures never resolve, the client's middleware throws them. */
export type BlobCall = Promise<{ data?: Blob; response: Response }>

/**
 * Waits for a file answered by the server and saves it under the name of its Content-Disposition (or
 * `fallback`); answers the name saved.
 */
export async function download(call: BlobCall, fallback: string): Promise<string> {
  const { data, response } = await call
  const name = dispositionName(response.headers.get('Content-Disposition'), fallback)
  saveFile(data ?? new Blob([]), name)
  return name
}
