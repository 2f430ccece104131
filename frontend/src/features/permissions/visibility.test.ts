import { describe, expect, it } from 'vitest'
import type { AllowedItems } from './api'
import { draftOf, isDirty, isSavable, payloadOf, toggled } from './visibility'

const saved: AllowedItems = {
  restricted: true,
  items: [
    { itemType: 'cartography', itemId: 12 },
    { itemType: 'cartography', itemId: 5 },
    { itemType: 'subject', itemId: 40 },
  ],
}

describe('visibility draft', () => {
  it('starts from the saved cartographies, in id order', () => {
    expect(draftOf(saved)).toEqual({ restricted: true, checked: [5, 12] })
    expect(draftOf({ restricted: false, items: [] })).toEqual({ restricted: false, checked: [] })
  })

  it('is dirty when the switch or, for a restricted group, the checks differ', () => {
    const draft = draftOf(saved)
    expect(isDirty(draft, saved)).toBe(false)
    expect(isDirty(toggled(draft, [7], true), saved)).toBe(true)
    expect(isDirty(toggled(toggled(draft, [7], true), [7], false), saved)).toBe(false)
    expect(isDirty({ ...draft, restricted: false }, saved)).toBe(true)
    // An unrestricted group sees everything: its checks are no change.
    const open: AllowedItems = { restricted: false, items: [] }
    expect(isDirty(toggled(draftOf(open), [7], true), open)).toBe(false)
  })

  it('saves the checked cartographies and keeps the items of other types', () => {
    expect(payloadOf(toggled(draftOf(saved), [3, 12], true), saved)).toEqual({
      restricted: true,
      items: [
        { itemType: 'cartography', itemId: 3 },
        { itemType: 'cartography', itemId: 5 },
        { itemType: 'cartography', itemId: 12 },
        { itemType: 'subject', itemId: 40 },
      ],
    })
  })

  it('saves an unrestricted group with no item at all', () => {
    expect(payloadOf({ restricted: false, checked: [5, 12] }, saved)).toEqual({ restricted: false, items: [] })
  })

  it('refuses a restriction to nothing', () => {
    const onlyCartographies: AllowedItems = { restricted: true, items: [{ itemType: 'cartography', itemId: 5 }] }
    expect(isSavable({ restricted: true, checked: [] }, onlyCartographies)).toBe(false)
    expect(isSavable({ restricted: false, checked: [] }, onlyCartographies)).toBe(true)
    // Items of other types still restrict the group, to no cartography.
    expect(isSavable({ restricted: true, checked: [] }, saved)).toBe(true)
  })
})
