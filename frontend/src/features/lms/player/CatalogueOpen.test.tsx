import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { COURSES, CONSIGNATION } from '../../../components/courses/testData'
import { renderRoutes } from '../../../test/render'
import { fakeServer, json, sentRequests } from '../../../test/server'
import { LmsPage } from '../LmsPage'
import { sessionCan } from '../../../test/session'

function server(standard: 'cmi5' | 'scorm12') {
  return fakeServer({
    'GET /backend/api/v2/account/whoAmI': () => json({ id: 7, login: 'apprenant', firstName: 'Gabriel', lastName: 'Roux', externalId: null, displayName: 'Gabriel Roux', groups: [], permissions: [], can: sessionCan() }),
    'GET /backend/api/v2/lms/courses': () => json(COURSES.map((course) => ({ ...course, standard }))),
    'GET /backend/api/v2/lms/courses/3': () => json(CONSIGNATION),
    'GET /backend/api/v2/lms/attempts/mine': () => json([]),
    'GET /backend/api/v2/organization/info': () => json({ customerName: 'ACME', applicationName: 'Spot', legacyBaseUrl: null, timeZone: 'Europe/Paris', courseMaxBytes: 500_000_000 }),
  })
}

describe("the catalogue's unit of a SCORM course", () => {
  it('opens in the player, without a launch of its own; a cmi5 unit keeps its new tab', async () => {
    const fetchMock = server('scorm12')
    const first = renderRoutes([{ path: 'lms', Component: LmsPage }], '/spotv2/lms')
    const content = within(await screen.findByRole('region', { name: 'Content of Consignation' }))
    await userEvent.click(await content.findByText('Les six étapes'))
    const open = await content.findByRole('link', { name: 'Open in the player: Les six étapes' })
    expect(open).toHaveAttribute('href', '/spotv2/lms/courses/3/player?item=11')
    expect(content.getByText("It opens in Spot's player, beside the course's contents.")).toBeInTheDocument()
    expect(sentRequests(fetchMock, 'POST /backend/api/v2/lms/items/11/launch')).toHaveLength(0)
    first.unmount()

    server('cmi5')
    renderRoutes([{ path: 'lms', Component: LmsPage }], '/spotv2/lms')
    const cmi5 = within(await screen.findByRole('region', { name: 'Content of Consignation' }))
    await userEvent.click(await cmi5.findByText('Les six étapes'))
    expect(await cmi5.findByRole('button', { name: 'Launch Les six étapes' })).toBeInTheDocument()
  })
})
