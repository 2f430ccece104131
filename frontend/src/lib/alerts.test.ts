import { describe, expect, it } from 'vitest'
import i18n from '../i18n'
import { type Alert, alertKey, alertPath, alertWhen } from './alerts'

const falling: Alert = {
  kind: 'functionUnderMinimum',
  args: { name: 'Soudeur', cartography: 'Atelier', fallsOn: '2026-07-31', days: 46, valid: 2, minimum: 3 },
  date: '2026-06-01T00:00:00Z',
  target: { type: 'cartographyQualifications', id: 2 },
}

describe('a function falling under its minimum in the bell', () => {
  it("leads to the cartography's qualification dashboard", () => {
    expect(alertPath(falling.target)).toBe('/dashboards/qualifications/cartography/2')
  })

  it('is dated by the day it falls', () => {
    expect(alertWhen(falling, i18n.getFixedT('en'), 'en', true)).toBe('from 2026-07-31')
    expect(alertWhen(falling, i18n.getFixedT('fr'), 'fr', false)).toBe('à partir du 31/07/2026')
  })
})

describe('alertKey', () => {
  it('tells apart two functions of one cartography, and two modules of one path', () => {
    const other = { ...falling, args: { ...falling.args, name: 'Régleur' } }
    expect(alertKey(other)).not.toBe(alertKey(falling))
    expect(alertKey({ ...falling })).toBe(alertKey(falling))
  })
})
