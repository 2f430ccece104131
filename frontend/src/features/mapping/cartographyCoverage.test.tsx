import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { routes } from '../../app/router'
import i18n from '../../i18n'
import { storeToken } from '../../lib/session'
import { renderRoutes } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'
import type { CartographyCoverage } from './api'

const API = '/backend/api/v2'
const COVERAGE = `GET ${API}/dashboards/cartography/2/coverage`
const PAGE = '/spotv2/cartography/2'

const point = (days: number, valid: number, minimum: number, requalifying = 0) => ({
  days,
  date: `2026-0${6 + days / 30}-15`,
  valid,
  requalifying,
  underMinimum: valid < minimum,
})

const COVERAGE_ANSWER: CartographyCoverage = {
  cartography: { id: 2, name: 'Atelier d’usinage' },
  warnDays: 60,
  functions: [
    {
      function: { id: 11, name: 'Soudeur' },
      cartographyId: 2,
      minimum: 3,
      outlook: 'falling',
      fallsOn: '2026-07-31',
      points: [point(0, 4, 3), point(30, 3, 3, 1), point(60, 2, 3, 1), point(90, 2, 3, 1)],
    },
    {
      function: { id: 12, name: 'Régleur' },
      cartographyId: 2,
      minimum: 2,
      outlook: 'enough',
      fallsOn: null,
      points: [point(0, 2, 2), point(30, 2, 2), point(60, 2, 2), point(90, 2, 2)],
    },
  ],
}

function signedInAs(permissions: string[]) {
  storeToken('token')
  return fakeServer({
    [`GET ${API}/account/whoAmI`]: () =>
      json({ id: 7, login: 'bdubois', firstName: 'Bernard', lastName: 'Dubois', externalId: null, displayName: 'Bernard Dubois', groups: [], permissions }),
    [`GET ${API}/organization/info`]: () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null }),
    [`GET ${API}/account/alerts`]: () => json({ alerts: [], count: 0 }),
    [`GET ${API}/discussion/unread`]: () => json([]),
    [`GET ${API}/cartography/2`]: () =>
      json({
        id: 2,
        code: 'AU',
        name: 'Atelier d’usinage',
        site: { id: 1, code: 'LY', name: 'Lyon' },
        context: [],
        discussionId: null,
        imageUrl: '/cartography/2/image',
        imageWidth: 400,
        imageHeight: 300,
        activities: [],
        functions: [
          { id: 11, code: 'SO', name: 'Soudeur' },
          { id: 12, code: 'RE', name: 'Régleur' },
          { id: 13, code: 'MA', name: 'Magasinier' },
        ],
        stats: { reads: 3, writes: 1 },
      }),
    [`GET ${API}/cartography/2/image`]: () => new Response(new Uint8Array([137, 80, 78, 71]), { headers: { 'Content-Type': 'image/png' } }),
    [`GET ${API}/cartography/2/zones`]: () =>
      json([
        { id: 1, type: 'function', itemId: 11, itemCode: 'SO', itemName: 'Soudeur', rectangle: { x: 10, y: 10, width: 100, height: 50 } },
        { id: 2, type: 'function', itemId: 12, itemCode: 'RE', itemName: 'Régleur', rectangle: { x: 200, y: 10, width: 100, height: 50 } },
        { id: 3, type: 'function', itemId: 13, itemCode: 'MA', itemName: 'Magasinier', rectangle: { x: 10, y: 100, width: 100, height: 50 } },
      ]),
    [`GET ${API}/pictos/2`]: () => json([]),
    [`POST ${API}/history/contributions`]: () => json({ periods: [] }),
    [COVERAGE]: () => json(COVERAGE_ANSWER),
  })
}

/** The plan's image read as an address (jsdom's FileReader does not read the Blob a Response gives). */
class ImageReader {
  result: string | null = null
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  readAsDataURL() {
    this.result = 'data:image/png;base64,iVBORw0KGgo='
    setTimeout(() => this.onload?.())
  }
}

describe('the coverage on the plan', () => {
  beforeEach(() => {
    vi.stubGlobal('FileReader', ImageReader)
  })

  it('colours each function zone by its outlook for managers, with its legend, its words and its table', async () => {
    signedInAs(['perm_TableauBord'])
    renderRoutes(routes, PAGE)
    const soudeur = await screen.findByRole('link', { name: 'Soudeur: Falls under its minimum within 90 days, 4 qualified today of 3; see the function' })
    expect(soudeur).toHaveAttribute('data-outlook', 'falling')
    expect(screen.getByRole('link', { name: 'Régleur: At its minimum for 90 days, 2 qualified today of 2; see the function' })).toHaveAttribute(
      'data-outlook',
      'enough',
    )
    // A function the forecast does not name (hidden from the user) keeps its plain zone.
    expect(screen.getByRole('link', { name: 'Magasinier: see the function' })).not.toHaveAttribute('data-outlook')
    const legend = screen.getByRole('list', { name: 'Legend of the coverage colours' })
    expect(within(legend).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Nobody qualified (0 functions)',
      'Under its minimum (0 functions)',
      'Falls under its minimum within 90 days (1 function)',
      'At its minimum for 90 days (1 function)',
    ])
    // The side list says it in words.
    const functions = screen.getByRole('region', { name: 'Functions' })
    expect(within(functions).getByText('Falls under its minimum within 90 days · 4/3')).toBeInTheDocument()
    // The table: today, +30, +60, +90, the days under the minimum said.
    await userEvent.click(screen.getByRole('button', { name: 'Show the table' }))
    const table = await screen.findByRole('table')
    const row = within(table).getByRole('row', { name: /Soudeur/ })
    expect(within(row).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      'Falls under its minimum within 90 daysFalls under its minimum on 2026-07-31',
      '3',
      '4',
      '31 being requalified',
      '2, under its minimum1 being requalified',
      '2, under its minimum1 being requalified',
    ])
    // Switched off, the zones are plain again.
    await userEvent.click(screen.getByRole('switch', { name: 'Show on the plan' }))
    expect(screen.getByRole('link', { name: 'Soudeur: see the function' })).not.toHaveAttribute('data-outlook')
  })

  it('is in French too', async () => {
    await i18n.changeLanguage('fr')
    signedInAs(['perm_TableauBord'])
    renderRoutes(routes, PAGE)
    expect(
      await screen.findByRole('link', { name: "Soudeur : Passe sous son minimum d'ici 90 jours, 4 qualifié(s) aujourd'hui sur 3 ; voir la fonction" }),
    ).toHaveAttribute('data-outlook', 'falling')
    expect(screen.getByRole('list', { name: 'Légende des couleurs de couverture' })).toBeInTheDocument()
  })

  it('is neither asked nor shown without perm_TableauBord', async () => {
    const fetchMock = signedInAs([])
    renderRoutes(routes, PAGE)
    expect(await screen.findByRole('link', { name: 'Soudeur: see the function' })).not.toHaveAttribute('data-outlook')
    expect(screen.queryByRole('region', { name: 'Coverage of the functions' })).not.toBeInTheDocument()
    await waitFor(() => expect(sentRequests(fetchMock, `GET ${API}/cartography/2/zones`)).toHaveLength(1))
    expect(sentRequests(fetchMock, COVERAGE)).toHaveLength(0)
  })
})
