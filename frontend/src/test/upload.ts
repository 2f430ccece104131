import { vi } from 'vitest'

interface Answer {
  status: number
  body: unknown
}

/** XMLHttpRequest as the upload uses it: progress while sending, then the answer given to `respond`. */
export class FakeUpload {
  static sent: { url: string; headers: Record<string, string>; body: unknown }[] = []
  static answer: Answer = { status: 200, body: {} }
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  status = 0
  statusText = ''
  responseText = ''
  private url = ''
  private headers: Record<string, string> = {}

  open(_method: string, url: string) {
    this.url = url
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value
  }
  send(body: unknown) {
    FakeUpload.sent.push({ url: this.url, headers: this.headers, body })
    this.upload.onprogress?.({ lengthComputable: true, loaded: 40, total: 100 })
    setTimeout(() => {
      this.status = FakeUpload.answer.status
      this.responseText = JSON.stringify(FakeUpload.answer.body)
      this.onload?.()
    }, 10)
  }
}

export function answer(status: number, body: unknown) {
  FakeUpload.sent = []
  FakeUpload.answer = { status, body }
  vi.stubGlobal('XMLHttpRequest', FakeUpload)
}
