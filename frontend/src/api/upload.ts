/**
 * The options of one call of the API client that sends `file` as the raw body and reports the
 * upload's progress (0 to 1): `api.POST(path, { params, headers, ...withProgress(file, onProgress) })`.
 * The call is the client's like any other: its middleware adds the session header and turns a
 * failure into an ApiError, a 401 ending the session.
 */
export function withProgress(file: Blob | null, onProgress: (done: number) => void) {
  return {
    // The client types a raw body as a string; the file goes to XMLHttpRequest as it is, not through the Request.
    body: file as never,
    bodySerializer: () => undefined,
    fetch: uploadFetch(file, onProgress),
  }
}

/** A fetch that sends `body` through XMLHttpRequest, the one browser call that reports an upload's progress. */
function uploadFetch(body: Blob | null, onProgress: (done: number) => void): (request: Request) => Promise<Response> {
  return (request) =>
    new Promise<Response>((resolve, reject) => {
      const upload = new XMLHttpRequest()
      const url = new URL(request.url)
      upload.open(request.method, url.origin === window.location.origin ? `${url.pathname}${url.search}` : request.url)
      request.headers.forEach((value, name) => upload.setRequestHeader(headerName(name), value))
      upload.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
      }
      upload.onload = () => resolve(new Response(upload.responseText || null, { status: upload.status, statusText: upload.statusText }))
      upload.onerror = () => reject(new Error('uploadFailed'))
      upload.send(body)
    })
}

/** A header's name as HTTP/1.1 writes it ('content-type' → 'Content-Type'); Headers keeps names in lower case. */
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (_whole, dash: string, letter: string) => dash + letter.toUpperCase())
