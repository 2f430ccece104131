import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ContextEntry } from '../../api/types'
import { renderRoutes } from '../../test/render'
import { fakeServer, json } from '../../test/server'
import type { SubjectCard } from './api'
import { SubjectCardView } from './SubjectCardView'

const functionPath: ContextEntry[] = [
  { id: 1, code: 'LYON', name: 'Usine de Lyon', type: 'site' },
  { id: 2, code: 'USI', name: "Atelier d'usinage", type: 'cartography' },
  { id: 12, code: 'OPR', name: 'Opérateur régleur', type: 'function' },
]

function card(changes: { hasDiagram: boolean; standardized: boolean; withContext: boolean }): SubjectCard {
  return {
    id: 5,
    code: 'USI-005',
    name: 'Réglage du tour',
    type: 'quality',
    cartographyId: 2,
    functionId: 12,
    activityId: 5,
    criticity: null,
    criticityLevel: null,
    ratings: { frequency: 0, gravity: 0, detectability: 0 },
    mainNodeStatus: 'inProgress',
    hasDiagram: changes.hasDiagram,
    lastMindmapUpdate: null,
    lifetimeEvents: {
      creation: null,
      lastUpdate: null,
      followed: null,
      resolved: null,
      criticity: null,
      standardized: changes.standardized ? { userId: 3, userName: 'Alice Martin', date: '2026-03-10T09:15:00Z' } : null,
    },
    contexts: changes.withContext ? [functionPath] : [],
  }
}

function show(legacyBaseUrl: string | null, changes: Parameters<typeof card>[0]) {
  fakeServer({ 'GET /backend/api/v2/organization/info': () => json({ customerName: '', applicationName: 'Spot', legacyBaseUrl }) })
  const Card = () => <SubjectCardView subject={card(changes)} unread={false} targeted={false} />
  renderRoutes([{ path: 'subjects', Component: Card }], '/spotv2/subjects')
}

const v1 = (target: string) => `/spotv2/v1?to=${encodeURIComponent(target)}`
const CASES = [
  [false, false],
  [true, false],
  [false, true],
  [true, true],
] as const

describe('the buttons of a subject card', () => {
  describe.each([true, false])('without a legacy address (context %s)', (withContext) => {
    it.each(CASES)("lead to Spot's own views (diagram %s, standardized %s)", async (hasDiagram, standardized) => {
      show(null, { hasDiagram, standardized, withContext })
      const article = await screen.findByRole('article', { name: 'Réglage du tour' })
      expect(await within(article).findByRole('link', { name: 'Mind map' })).toHaveAttribute('href', '/spotv2/subject/5/mindmap')
      const diagram = within(article).queryByRole('link', { name: 'Diagram' })
      const copy = within(article).queryByRole('link', { name: 'Standardized mind map' })
      if (hasDiagram) expect(diagram).toHaveAttribute('href', '/spotv2/subject/5/diagram')
      else expect(diagram).not.toBeInTheDocument()
      if (standardized) expect(copy).toHaveAttribute('href', '/spotv2/subject/5/mindmap/standardized')
      else expect(copy).not.toBeInTheDocument()
    })
  })

  describe('with a legacy address', () => {
    it.each(CASES)('lead to the legacy pages through V1Redirection (diagram %s, standardized %s)', async (hasDiagram, standardized) => {
      show('https://old.example.com/', { hasDiagram, standardized, withContext: true })
      const article = await screen.findByRole('article', { name: 'Réglage du tour' })
      expect(await within(article).findByRole('link', { name: 'Mind map' })).toHaveAttribute('href', v1('spot/LYON/fonction/OPR/pdvhaut/USI-005//'))
      const diagram = within(article).queryByRole('link', { name: 'Diagram' })
      const copy = within(article).queryByRole('link', { name: 'Standardized mind map' })
      if (hasDiagram) expect(diagram).toHaveAttribute('href', v1('spot/LYON/fonction/OPR/pdvbas/USI-005'))
      else expect(diagram).not.toBeInTheDocument()
      if (standardized) expect(copy).toHaveAttribute('href', v1('spot/LYON/fonction/OPR/pdvhaut/USI-005/standard'))
      else expect(copy).not.toBeInTheDocument()
    })

    it('are absent for a subject without a context', async () => {
      fakeServer({ 'GET /backend/api/v2/organization/info': () => json({ customerName: '', applicationName: 'Spot', legacyBaseUrl: 'https://old.example.com/' }) })
      const placed = { ...card({ hasDiagram: true, standardized: true, withContext: true }), id: 6, name: 'Placé' }
      const Cards = () => (
        <>
          <SubjectCardView subject={placed} unread={false} targeted={false} />
          <SubjectCardView subject={card({ hasDiagram: true, standardized: true, withContext: false })} unread={false} targeted={false} />
        </>
      )
      renderRoutes([{ path: 'subjects', Component: Cards }], '/spotv2/subjects')
      // Once the card with a context shows its buttons, the organisation is known.
      expect(await within(await screen.findByRole('article', { name: 'Placé' })).findByRole('link', { name: 'Mind map' })).toBeInTheDocument()
      const article = screen.getByRole('article', { name: 'Réglage du tour' })
      expect(within(article).queryByRole('link', { name: 'Mind map' })).not.toBeInTheDocument()
      expect(within(article).queryByRole('link', { name: 'Diagram' })).not.toBeInTheDocument()
      expect(within(article).queryByRole('link', { name: 'Standardized mind map' })).not.toBeInTheDocument()
    })
  })
})
