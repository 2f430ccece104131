import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderRoutes } from '../../test/render'
import { fakeServer, json } from '../../test/server'
import type { FunctionView } from './api'
import { FunctionPage } from './FunctionPage'

const LYON = { id: 1, code: 'LYON', name: 'Usine de Lyon', type: 'site' } as const
const USINAGE = { id: 2, code: 'USI', name: "Atelier d'usinage", type: 'cartography' } as const

function view(create: boolean): FunctionView {
  return {
    id: 12,
    code: 'OPR',
    name: 'Opérateur régleur',
    cartographyId: 2,
    context: [LYON, USINAGE],
    activities: [
      { id: 20, code: 'REC', name: 'Réception matière', subjects: [] },
      { id: 21, code: 'USN', name: 'Usinage', subjects: [] },
    ],
    discussionId: 30,
    can: { create },
  }
}

function renderFunction(create: boolean, permissions: string[]) {
  fakeServer({
    'GET /backend/api/v2/function/12': () => json(view(create)),
    'GET /backend/api/v2/cartography/2/activities': () => json([]),
    // Whatever the user's permissions say, the page follows the server's `can`.
    'GET /backend/api/v2/account/whoAmI': () => json({ id: 3, login: 'u', firstName: 'U', lastName: 'V', externalId: null, displayName: 'U V', groups: [], permissions }),
  })
  renderRoutes([{ path: 'function/:functionId', Component: FunctionPage }], '/spotv2/function/12')
}

describe('function view', () => {
  it('offers to add a subject in each activity, prefilled, when the server says the user may create', async () => {
    renderFunction(true, [])
    const add = await screen.findByRole('link', { name: 'Add a subject in Usinage' })
    expect(add).toHaveAttribute('href', '/spotv2/subject/add?cartography=2&function=12&activity=21')
    expect(screen.getByRole('link', { name: 'Add a subject in Réception matière' })).toBeInTheDocument()
    const heading = screen.getByRole('link', { name: 'Usinage' })
    expect(heading).toHaveAttribute('href', `/spotv2/subjects/${encodeURIComponent('location oneOf 12 & location oneOf 21')}`)
  })

  it('offers no add button when the server says the user may not create', async () => {
    renderFunction(false, ['perm_EditPdv'])
    const section = await screen.findByRole('region', { name: 'Usinage' })
    expect(within(section).getByText('No subject of this function in this activity.')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /^Add a subject in/ })).not.toBeInTheDocument()
  })
})
