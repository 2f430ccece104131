import { screen, waitFor, within } from '@testing-library/react'
import { useQuery } from '@tanstack/react-query'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { errorReports } from '../../api/errorReports'
import { whoAmIQuery } from '../../api/queries'
import { renderWithClient } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { UsageChart } from './UsageChart'

const CONTRIBUTIONS = 'POST /backend/api/v2/history/contributions'

/** The chart on a page of the shell, which reads who the user is. */
function OnAPage({ target }: { target: { itemIds?: number[]; subjectIds?: number[] } }) {
  useQuery(whoAmIQuery)
  return <UsageChart target={target} />
}

const who = (permissions: string[]) => () =>
  json({ id: 3, login: 'u', firstName: 'U', lastName: 'V', externalId: null, displayName: 'U V', groups: [], permissions })

let asked: Record<string, unknown>[] = []

/** Two periods of the granularity asked for, with figures that tell them apart. */
async function figures(request: Request) {
  const body = (await request.json()) as { granularity: 'week' | 'month' }
  asked.push(body)
  const periods =
    body.granularity === 'week'
      ? [
          { start: '2025-01-06', views: 4, contributions: 1 },
          { start: '2025-01-13', views: 0, contributions: 0 },
        ]
      : [
          { start: '2025-01-01', views: 40, contributions: 7 },
          { start: '2025-02-01', views: 2, contributions: 0 },
        ]
  return json({ granularity: body.granularity, periods })
}

describe('the usage chart', () => {
  it('shows the weeks first, then the months when switched, with the figures as a table', async () => {
    asked = []
    fakeServer({ 'GET /backend/api/v2/account/whoAmI': who(['perm_VisuTrack']), [CONTRIBUTIONS]: figures })
    renderWithClient(<OnAPage target={{ itemIds: [12] }} />)
    const section = await screen.findByRole('region', { name: 'Usage' })
    const weeks = await within(section).findByRole('table', { name: 'Views and contributions per week' })
    const firstWeek = within(weeks).getByRole('row', { name: 'Week of 2025-01-06 4 1' })
    expect(firstWeek).toBeInTheDocument()
    expect(within(weeks).getByRole('row', { name: 'Week of 2025-01-13 0 0' })).toBeInTheDocument()
    expect(within(section).getByRole('button', { name: 'Weeks' })).toHaveAttribute('aria-pressed', 'true')
    expect(asked[0]).toMatchObject({ itemIds: [12], subjectIds: [], userIds: [], granularity: 'week', count: 78 })

    await userEvent.click(within(section).getByRole('button', { name: 'Months' }))
    const months = await within(section).findByRole('table', { name: 'Views and contributions per month' })
    expect(within(months).getByRole('row', { name: 'January 2025 40 7' })).toBeInTheDocument()
    expect(within(section).getByRole('button', { name: 'Months' })).toHaveAttribute('aria-pressed', 'true')
    expect(asked[1]).toMatchObject({ granularity: 'month', count: 18 })
  })

  it('is not asked for without perm_VisuTrack', async () => {
    const fetchMock = fakeServer({ 'GET /backend/api/v2/account/whoAmI': who(['perm_EditPdv']), [CONTRIBUTIONS]: figures })
    renderWithClient(<OnAPage target={{ subjectIds: [5] }} />)
    await waitFor(() => expect(sentRequests(fetchMock, 'GET /backend/api/v2/account/whoAmI')).toHaveLength(1))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(sentRequests(fetchMock, CONTRIBUTIONS)).toHaveLength(0)
    expect(screen.queryByRole('region', { name: 'Usage' })).not.toBeInTheDocument()
  })

  it('adds no failure of its own when who the user is cannot be read', async () => {
    const fetchMock = fakeServer({ [CONTRIBUTIONS]: figures })
    renderWithClient(<UsageChart target={{ itemIds: [12] }} />)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(sentRequests(fetchMock, 'GET /backend/api/v2/account/whoAmI')).toHaveLength(0)
    expect(errorReports.current()).toHaveLength(0)
    expect(screen.queryByRole('region', { name: 'Usage' })).not.toBeInTheDocument()
  })

  it('shows nothing, and no error, when the server refuses', async () => {
    const fetchMock = fakeServer({
      'GET /backend/api/v2/account/whoAmI': who(['perm_VisuTrack']),
      [CONTRIBUTIONS]: () => errorBody(403, 'Forbidden', 'Insufficient rights to access this information'),
    })
    renderWithClient(<OnAPage target={{ itemIds: [12] }} />)
    await waitFor(() => expect(sentRequests(fetchMock, CONTRIBUTIONS)).toHaveLength(1))
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Usage' })).not.toBeInTheDocument())
    expect(errorReports.current()).toHaveLength(0)
  })
})
