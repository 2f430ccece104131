import { describe, expect, it } from 'vitest'
import { launchedAddress } from './launch'

describe('where a launched unit opens', () => {
  it('opens a cmi5 unit at its launch address', () => {
    const url = 'http://127.0.0.1:8000/backend/api/v2/lms/play/k3y/quiz.html?endpoint=x'
    expect(launchedAddress({ url, standard: 'cmi5', courseId: 3 }, 12)).toBe(url)
  })

  it("opens a SCORM unit in its course's player, on Spot's own address", () => {
    const launched = { url: 'http://localhost:8000/backend/api/v2/lms/play/k3y/', standard: 'scorm12' as const, courseId: 3 }
    expect(launchedAddress(launched, 12)).toBe(`${window.location.origin}/spotv2/lms/courses/3/player?item=12`)
    expect(launchedAddress({ ...launched, standard: 'scorm2004' }, 7)).toBe(`${window.location.origin}/spotv2/lms/courses/3/player?item=7`)
  })
})
