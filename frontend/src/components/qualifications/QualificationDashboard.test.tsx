import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import i18n from '../../i18n'
import { renderRoutes } from '../../test/render'
import { QualificationDashboard } from './QualificationDashboard'
import { type DashboardShown, useDashboardShown } from './shown'
import type { DashboardChild, DashboardElement, DashboardItem } from './types'
import { validityState, validityText } from './validity'

const t = i18n.t.bind(i18n)

function child(id: number, name: string, remainingDays: number, more: Partial<DashboardChild> = {}): DashboardChild {
  return {
    id,
    name,
    remainingDays,
    state: validityState(remainingDays),
    validUntil: remainingDays > -10000 && remainingDays < 10000 ? '2027-01-15' : null,
    validationTrainingPath: null,
    requalificationTrainingPath: null,
    link: { type: 'user', id },
    ...more,
  }
}

/** An item with its counts by state, from all its children (as the server counts them). */
function item(fields: Omit<DashboardItem, 'counts'>, children: DashboardChild[]): DashboardItem {
  const counts = { good: 0, warn: 0, none: 0 }
  for (const c of children) counts[c.state] += 1
  return { ...fields, counts }
}

const HABILITATION = [
  child(2, 'Alain Permanent', 10000, { validationTrainingPath: 30 }),
  child(3, 'Bruno Bientôt', 12),
  child(1, 'Zoé Expirée', -12, { validationTrainingPath: 31, requalificationTrainingPath: 32 }),
  child(4, 'Claire Jamais', -10000),
]
const CONDUITE = [child(5, 'Denis Absent', -10000)]

const ELEMENTS: DashboardElement[] = [
  {
    item: item({ id: 9, name: 'Habilitation électrique', total: 4, obtained: 2, remainingDays: -10000, state: 'none', validUntil: null, link: { type: 'qualification', id: 9 } }, HABILITATION),
    children: HABILITATION,
  },
  {
    item: item({ id: 10, name: 'Conduite de chariot', total: 1, obtained: 0, remainingDays: -10000, state: 'none', validUntil: null, link: { type: 'qualification', id: 10 } }, CONDUITE),
    children: CONDUITE,
  },
]

/** What the server answers for `shown` (backend qualifications/dashboards.py Shown): the children of the states asked, `limit` of them unless the item is expanded. */
function answered(elements: DashboardElement[], shown: DashboardShown, limit: number): DashboardElement[] {
  return elements.map((element) => {
    const children = element.children.filter((c) => shown.states.includes(c.state))
    return { ...element, children: shown.expanded.includes(element.item.id) ? children : children.slice(0, limit) }
  })
}

function Harness({ elements, limit }: { elements: DashboardElement[]; limit: number }) {
  const { shown, setStates, expand } = useDashboardShown()
  return (
    <QualificationDashboard
      elements={answered(elements, shown, limit)}
      linkTo={(link) => (link.type === 'qualification' ? `/qualification/view/${link.id}` : undefined)}
      shown={shown}
      onStatesChange={setStates}
      onExpand={expand}
    />
  )
}

function renderDashboard(elements: DashboardElement[] = ELEMENTS, limit = 25) {
  return renderRoutes([{ path: '*', element: <Harness elements={elements} limit={limit} /> }], '/spotv2/')
}

describe('validityText', () => {
  it.each([
    [10000, null, null, 'Permanent'],
    [12000, null, null, 'Permanent'],
    [-10000, null, null, 'Never validated'],
    [-10000, null, 8, 'Never validated · in progress'],
    [-1, '2026-11-23', null, 'Expired for 1 day · expires on 2026-11-23'],
    [-12, '2026-11-12', 8, 'Expired for 12 days · expires on 2026-11-12 · in progress'],
    [0, '2026-11-24', 8, '0 days left · expires on 2026-11-24'],
    [45, '2027-01-08', null, '45 days left · expires on 2027-01-08'],
  ])('says %i remaining days (until %s, requalification path %s) as %s', (remainingDays, validUntil, requalificationTrainingPath, text) => {
    expect(validityText({ remainingDays, validUntil, requalificationTrainingPath }, t, 'en')).toBe(text)
  })

  it('writes the date in French as DD/MM/YYYY', async () => {
    await i18n.changeLanguage('fr')
    expect(validityText({ remainingDays: 45, validUntil: '2027-01-08' }, t, 'fr')).toBe('45 jours restants · échéance le 08/01/2027')
  })
})

describe('validityState', () => {
  it.each([
    [10000, 'good'],
    [31, 'good'],
    [30, 'warn'],
    [0, 'warn'],
    [-1, 'none'],
    [-10000, 'none'],
  ])('%i remaining days is %s', (days, state) => {
    expect(validityState(days)).toBe(state)
  })
})

describe('QualificationDashboard', () => {
  it('shows each item with its obtained count, a link, and its children in the order the server gives', () => {
    renderDashboard()
    const item = screen.getByRole('region', { name: 'Habilitation électrique' })
    expect(within(item).getByRole('link', { name: 'Habilitation électrique' })).toHaveAttribute('href', '/spotv2/qualification/view/9')
    expect(within(item).getByText('2 / 4 obtained')).toBeInTheDocument()
    const rows = within(item).getAllByRole('listitem')
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Alain Permanent'),
      expect.stringContaining('Bruno Bientôt'),
      expect.stringContaining('Zoé Expirée'),
      expect.stringContaining('Claire Jamais'),
    ])
    expect(within(item).queryByRole('button', { name: /Show all/ })).toBeNull()
    expect(rows[0]).toHaveTextContent('Permanent')
    expect(rows[2]).toHaveTextContent('Expired for 12 days')
    // A child whose link the page does not give is plain text.
    expect(within(rows[0]).queryByRole('link', { name: 'Alain Permanent' })).toBeNull()
  })

  it('links to the validation and requalification paths', () => {
    renderDashboard()
    const row = screen.getByText('Zoé Expirée').closest('li') as HTMLElement
    expect(within(row).getByRole('link', { name: 'Validation path' })).toHaveAttribute('href', '/spotv2/training/path/view/31')
    expect(within(row).getByRole('link', { name: 'Requalification path' })).toHaveAttribute('href', '/spotv2/training/path/view/32')
  })

  it('filters the children by the legend, all states shown at first, and hides an item left empty', async () => {
    renderDashboard()
    const legend = screen.getByRole('group', { name: 'Legend: states shown' })
    const notValidated = within(legend).getByRole('button', { name: 'Not validated' })
    expect(within(legend).getAllByRole('button').map((button) => button.getAttribute('aria-pressed'))).toEqual(['true', 'true', 'true'])
    await userEvent.click(notValidated)
    expect(notValidated).toHaveAttribute('aria-pressed', 'false')
    expect(screen.queryByText('Zoé Expirée')).toBeNull()
    expect(screen.queryByText('Claire Jamais')).toBeNull()
    expect(screen.getByText('Bruno Bientôt')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Conduite de chariot' })).toBeNull()
    await userEvent.click(within(legend).getByRole('button', { name: 'More than a month' }))
    await userEvent.click(within(legend).getByRole('button', { name: 'Less than a month' }))
    expect(screen.getByText('Nothing in the states chosen in the legend.')).toBeInTheDocument()
    await userEvent.click(notValidated)
    expect(screen.getByText('Denis Absent')).toBeInTheDocument()
  })

  it('shows the first children of an item and the rest on demand', async () => {
    renderDashboard(ELEMENTS, 2)
    const habilitation = screen.getByRole('region', { name: 'Habilitation électrique' })
    expect(within(habilitation).getAllByRole('listitem')).toHaveLength(2)
    await userEvent.click(within(habilitation).getByRole('button', { name: 'Show all 4' }))
    expect(within(habilitation).getAllByRole('listitem')).toHaveLength(4)
    expect(within(habilitation).queryByRole('button', { name: /Show all/ })).toBeNull()
    // The legend counts what it shows: not validated, two of them, both there.
    const legend = screen.getByRole('group', { name: 'Legend: states shown' })
    await userEvent.click(within(legend).getByRole('button', { name: 'More than a month' }))
    await userEvent.click(within(legend).getByRole('button', { name: 'Less than a month' }))
    expect(within(habilitation).getAllByRole('listitem').map((row) => row.textContent)).toEqual([
      expect.stringContaining('Zoé Expirée'),
      expect.stringContaining('Claire Jamais'),
    ])
  })

  it("shows a validity on a person's own item only, not on an item that counts people", () => {
    const modules = [child(7, 'Conduite', 12, { link: { type: 'module', id: 7 } })]
    const own: DashboardElement = {
      item: item({ id: 11, name: 'Cariste', total: 1, obtained: 1, remainingDays: 12, state: 'warn', validUntil: '2027-01-15', link: { type: 'qualification', id: 11 } }, modules),
      children: modules,
    }
    renderDashboard([ELEMENTS[0], own])
    const overPeople = screen.getByRole('region', { name: 'Habilitation électrique' })
    // Claire's row says it; the item, which counts four people, does not.
    expect(within(overPeople).getAllByText('Never validated')).toHaveLength(1)
    const ownItem = screen.getByRole('region', { name: 'Cariste' })
    expect(within(ownItem).getAllByText(/12 days left/)).toHaveLength(2)
  })

  it('says when there is nothing at all', () => {
    renderDashboard([])
    expect(screen.getByText('Nothing to display.')).toBeInTheDocument()
  })
})
