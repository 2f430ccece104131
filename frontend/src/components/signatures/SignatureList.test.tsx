import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import i18n from '../../i18n'
import { formatDateTime } from '../../lib/dates'
import { renderWithClient } from '../../test/render'
import type { SignatureOut } from './api'
import { SignatureList } from './SignatureList'

const SIGNED_AT = '2026-11-30T09:15:00Z'
const REVOKED_AT = '2026-12-01T16:40:00Z'

const jeanne: SignatureOut = {
  id: 1,
  userId: 4,
  userName: 'Jeanne Dupont (E42)',
  date: SIGNED_AT,
  meaning: 'attendanceAndAgreement',
  userActive: true,
  modifiedAfterSignature: false,
  revoked: null,
}

describe('the signature list', () => {
  it('marks a signer who left as inactive, still named', () => {
    const left = { ...jeanne, id: 3, userActive: false }
    const paul = { ...jeanne, id: 2, userId: 5, userName: 'Paul Martin' }
    renderWithClient(<SignatureList signatures={[left, paul]} />)
    const [first, second] = within(screen.getByRole('list', { name: 'Signatures' })).getAllByRole('listitem')
    expect(first).toHaveTextContent('Jeanne Dupont (E42)')
    expect(within(first).getByText('Inactive')).toBeInTheDocument()
    expect(within(second).queryByText('Inactive')).not.toBeInTheDocument()
  })

  it('says so when nothing is signed', () => {
    renderWithClient(<SignatureList signatures={[]} />)
    expect(screen.getByText('No signature yet.')).toBeInTheDocument()
    expect(screen.queryByRole('list')).not.toBeInTheDocument()
  })

  it("shows each signer's printed name, the meaning and the date and time, in a labelled list", () => {
    const paul = { ...jeanne, id: 2, userId: 5, userName: 'Paul Martin' }
    renderWithClient(<SignatureList signatures={[jeanne, paul]} />)
    const list = screen.getByRole('list', { name: 'Signatures' })
    const [first, second] = within(list).getAllByRole('listitem')
    expect(first).toHaveTextContent('Jeanne Dupont (E42)')
    expect(first).toHaveTextContent('Attendance and agreement with the report')
    expect(first).toHaveTextContent(`Signed on ${formatDateTime(SIGNED_AT, 'en')}`)
    expect(within(first).getByText(formatDateTime(SIGNED_AT, 'en'))).toHaveAttribute('datetime', SIGNED_AT)
    expect(second).toHaveTextContent('Paul Martin')
    expect(screen.queryByText('Modified after signature')).not.toBeInTheDocument()
    expect(screen.queryByText(/Revoked/)).not.toBeInTheDocument()
  })

  it('marks a signature the record no longer matches', () => {
    renderWithClient(<SignatureList signatures={[{ ...jeanne, modifiedAfterSignature: true }]} />)
    expect(within(screen.getByRole('listitem')).getByText('Modified after signature')).toBeInTheDocument()
  })

  it('keeps a revoked signature, struck through, with when, by whom and why', () => {
    const revoked = { ...jeanne, modifiedAfterSignature: true, revoked: { date: REVOKED_AT, reason: 'mediationInvalidated', by: { id: 9, name: 'Marc Petit' } } }
    renderWithClient(<SignatureList signatures={[revoked]} />)
    const item = screen.getByRole('listitem')
    expect(item).toHaveTextContent(`Revoked by Marc Petit on ${formatDateTime(REVOKED_AT, 'en')} · The mediation was invalidated`)
    expect(within(item).getByText('Jeanne Dupont (E42)')).toHaveStyle({ textDecoration: 'line-through' })
    // What a revoked signature no longer vouches for is not worth a warning.
    expect(within(item).queryByText('Modified after signature')).not.toBeInTheDocument()
  })

  it('tells a revocation whose author is gone', () => {
    const revoked = { ...jeanne, revoked: { date: REVOKED_AT, reason: 'mediationInvalidated', by: null } }
    renderWithClient(<SignatureList signatures={[revoked]} />)
    expect(screen.getByRole('listitem')).toHaveTextContent(`Revoked on ${formatDateTime(REVOKED_AT, 'en')} · The mediation was invalidated`)
  })

  it('speaks French with French dates', async () => {
    await i18n.changeLanguage('fr')
    const revoked = { ...jeanne, revoked: { date: REVOKED_AT, reason: 'mediationInvalidated', by: null } }
    renderWithClient(<SignatureList signatures={[revoked]} />)
    const item = screen.getByRole('listitem')
    expect(item).toHaveTextContent(`Présence et accord avec le compte rendu · Signé le ${formatDateTime(SIGNED_AT, 'fr')}`)
    expect(formatDateTime(SIGNED_AT, 'fr')).toMatch(/^30\/11\/2026 \d\d:15$/)
    expect(item).toHaveTextContent('Révoquée le')
    expect(item).toHaveTextContent('La médiation a été invalidée')
  })
})
