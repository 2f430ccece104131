import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { routes } from '../../app/router'
import i18n from '../../i18n'
import { storeToken } from '../../lib/session'
import { renderRoutes } from '../../test/render'
import { fakeServer, json } from '../../test/server'
import type { UserQualificationDashboard } from './api'

const API = '/backend/api/v2'
const ME = 7
const ALICE = 12

const child = (id: number, name: string, remainingDays: number, state: 'good' | 'warn' | 'none', validUntil: string | null, validationTrainingPath: number | null) => ({
  id,
  name,
  remainingDays,
  state,
  validUntil,
  validationTrainingPath,
  requalificationTrainingPath: null,
  link: { type: 'module' as const, id },
})

/** Alice's status: Consigner expired 5 days ago after a failed requalification; Accueil permanent; Cariste never graded. */
const DASHBOARD: UserQualificationDashboard = {
  user: { id: ALICE, name: 'Alice Martin' },
  elements: [
    {
      item: {
        id: 9,
        name: 'Habilitation',
        total: 3,
        obtained: 1,
        counts: { good: 1, warn: 0, none: 2 },
        remainingDays: -10000,
        state: 'none',
        validUntil: null,
        link: { type: 'qualification', id: 9 },
      },
      children: [
        child(5, 'Accueil', 10000, 'good', null, 40),
        child(4, 'Consigner', -5, 'none', '2026-06-10', 31),
        child(6, 'Cariste', -10000, 'none', null, null),
      ],
    },
  ],
  history: [
    {
      module: { id: 5, name: 'Accueil' },
      gradings: [
        {
          id: 80,
          gradedAt: '2026-05-16T08:00:00Z',
          grade: 7.5,
          isSuccess: true,
          validUntil: null,
          permanent: true,
          referent: null,
          trainingPath: { id: 40, title: 'Accueil sécurité', status: 'archived' },
          outcome: 'valid',
        },
      ],
    },
    {
      module: { id: 4, name: 'Consigner' },
      gradings: [
        {
          id: 72,
          gradedAt: '2026-06-13T08:00:00Z',
          grade: 3,
          isSuccess: false,
          validUntil: null,
          permanent: false,
          referent: { id: 3, name: 'Renée Référente' },
          trainingPath: { id: 33, title: 'Requalification — Consigner', status: 'finished' },
          outcome: 'failed',
        },
        {
          id: 71,
          gradedAt: '2025-06-10T08:00:00Z',
          grade: 8.5,
          isSuccess: true,
          validUntil: '2026-06-10',
          permanent: false,
          referent: { id: 3, name: 'Renée Référente' },
          trainingPath: { id: 31, title: 'Consignation 2025', status: 'archived' },
          outcome: 'expired',
        },
        {
          id: 70,
          gradedAt: '2025-06-01T08:00:00Z',
          grade: 4,
          isSuccess: false,
          validUntil: null,
          permanent: false,
          referent: { id: 3, name: 'Renée Référente' },
          trainingPath: { id: 31, title: 'Consignation 2025', status: 'archived' },
          outcome: 'regraded',
        },
      ],
    },
  ],
}

function signedIn() {
  storeToken('token')
  return fakeServer({
    [`GET ${API}/account/whoAmI`]: () =>
      json({ id: ME, login: 'groux', firstName: 'Gabriel', lastName: 'Roux', externalId: null, displayName: 'Gabriel Roux', groups: [], permissions: ['perm_TableauBord'] }),
    [`GET ${API}/organization/info`]: () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null }),
    [`GET ${API}/account/alerts`]: () => json({ alerts: [], count: 0 }),
    [`GET ${API}/discussion/unread`]: () => json([]),
    [`GET ${API}/dashboards/qualifications/user/${ALICE}`]: () => json(DASHBOARD),
  })
}

/** The row of a module on the status (its list item). */
async function moduleRow(name: string): Promise<HTMLElement> {
  const row = (await screen.findByText(name)).closest('li')
  expect(row).not.toBeNull()
  return row as HTMLElement
}

describe("a module's validation history on the user qualification status", () => {
  it('opens as a timeline, newest first, each grading with what it counts for today', async () => {
    signedIn()
    const user = userEvent.setup()
    renderRoutes(routes, `/spotv2/dashboard/qualifications/user/${ALICE}`)
    const consigner = await moduleRow('Consigner')
    // The expired validation says so on the status itself, not "never validated".
    expect(within(consigner).getByText(/Expired for 5 days/)).toBeInTheDocument()
    const toggle = within(consigner).getByRole('button', { name: 'History (3): Consigner' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByRole('list', { name: /History of the validations of Consigner/ })).not.toBeInTheDocument()
    await user.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    const timeline = screen.getByRole('list', { name: 'History of the validations of Consigner, newest first' })
    expect(toggle).toHaveAttribute('aria-controls', timeline.parentElement?.id)
    const entries = within(timeline).getAllByRole('listitem')
    expect(entries.map((entry) => entry.dataset.outcome)).toEqual(['failed', 'expired', 'regraded'])
    expect(entries[0]).toHaveTextContent('2026-06-13')
    expect(entries[0]).toHaveTextContent('3 / 10 — not passed')
    expect(entries[0]).toHaveTextContent('Graded by Renée Référente')
    expect(entries[1]).toHaveTextContent('8.5 / 10 — passed')
    expect(within(entries[1]).getByText('Expired')).toBeInTheDocument()
    expect(entries[1]).toHaveTextContent('valid until 2026-06-10')
    expect(within(entries[1]).getByRole('link', { name: 'Consignation 2025' })).toHaveAttribute('href', '/spotv2/training/path/view/31')
    expect(within(entries[2]).getByText('Grade changed')).toBeInTheDocument()
    expect(within(entries[0]).getByRole('link', { name: 'Requalification — Consigner' })).toHaveAttribute('href', '/spotv2/training/path/view/33')
    await user.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByRole('list', { name: /History of the validations of Consigner/ })).not.toBeInTheDocument()
  })

  it('shows the validation held, its referent gone, and offers nothing for a module never graded', async () => {
    signedIn()
    const user = userEvent.setup()
    renderRoutes(routes, `/spotv2/dashboard/qualifications/user/${ALICE}`)
    await user.click(within(await moduleRow('Accueil')).getByRole('button', { name: 'History (1): Accueil' }))
    const [entry] = within(screen.getByRole('list', { name: /of Accueil/ })).getAllByRole('listitem')
    expect(within(entry).getByText('Current validation')).toBeInTheDocument()
    expect(entry).toHaveTextContent('Graded by a person whose account was deleted · permanent · Path: Accueil sécurité')
    expect(within(await moduleRow('Cariste')).queryByRole('button')).not.toBeInTheDocument()
  })

  it('is written in French with French dates and grades', async () => {
    await i18n.changeLanguage('fr')
    signedIn()
    const user = userEvent.setup()
    renderRoutes(routes, `/spotv2/dashboard/qualifications/user/${ALICE}`)
    await user.click(within(await moduleRow('Consigner')).getByRole('button', { name: 'Historique (3) : Consigner' }))
    const entries = within(screen.getByRole('list', { name: 'Historique des validations de Consigner, de la plus récente à la plus ancienne' })).getAllByRole(
      'listitem',
    )
    expect(entries[1]).toHaveTextContent('10/06/2025')
    expect(entries[1]).toHaveTextContent('8,5 / 10 — réussi')
    expect(entries[1]).toHaveTextContent('Noté par Renée Référente · valide jusqu\'au 10/06/2026 · Parcours : Consignation 2025')
    expect(within(entries[1]).getByText('Expirée')).toBeInTheDocument()
    expect(within(entries[2]).getByText('Note modifiée')).toBeInTheDocument()
  })
})
