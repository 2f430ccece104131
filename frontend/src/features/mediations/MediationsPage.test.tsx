import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { VirtuosoMockContext } from 'react-virtuoso'
import { describe, expect, it } from 'vitest'
import type { QueryField } from '../../lib/querylang/types'
import { renderRoutes } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'
import type { MediationCard } from './api'
import { MediationsPage } from './MediationsPage'

const QUERY = 'POST /backend/api/v2/mediation/query'
const NAMES = 'POST /backend/api/v2/user/getUserNames'
const SEARCH = 'GET /backend/api/v2/user/search'

const TEXT = ['contains', 'startsWith', 'endsWith', 'equals', 'different']
const LIST = ['oneOf', 'noneOf']
const DATE = ['sameDay', 'before', 'beforeOrSameDay', 'after', 'afterOrSameDay']

/** The registry of backend/src/spot/mediations/query.py, as GET /querylang/mediation/fields answers it. */
const FIELDS: QueryField[] = [
  { name: 'title', type: 'string', operators: TEXT, values: [], filterable: true, sortable: true },
  { name: 'description', type: 'string', operators: TEXT, values: [], filterable: true, sortable: false },
  { name: 'scheduled', type: 'boolean', operators: ['equals'], values: [], filterable: true, sortable: false },
  ...['scheduling_date', 'last_update', 'execution_start', 'execution_stop'].map(
    (name): QueryField => ({ name, type: 'date', operators: DATE, values: [], filterable: true, sortable: true }),
  ),
  ...['creator', 'mediator', 'participants'].map((name): QueryField => ({ name, type: 'id', operators: LIST, values: [], filterable: true, sortable: false })),
  {
    name: 'status',
    type: 'enum',
    operators: LIST,
    values: ['created', 'started', 'paused', 'stopped', 'validated', 'archived', 'canceled'],
    filterable: true,
    sortable: true,
  },
]

/** POST /querylang/mediation/parse for one `field operator value` criterion, or none. */
async function parseAnswer(request: Request) {
  const { filter, sort } = (await request.json()) as { filter: string; sort: string }
  const keys = sort === '' ? [] : sort.split(',').map((key) => ({ field: key.replace(/^-/, ''), descending: key.startsWith('-') }))
  const match = /^(\w+) (\w+) (.+)$/.exec(filter)
  const field = FIELDS.find((f) => f.name === match?.[1])
  if (!match || !field) return json({ filter: null, sort: keys })
  const list = field.type === 'id' || field.type === 'enum'
  const values = match[3].split(',')
  return json({
    filter: {
      kind: 'criterion',
      field: field.name,
      operator: match[2],
      type: field.type,
      value: list ? null : match[3],
      values: list ? (field.type === 'id' ? values.map(Number) : values) : null,
    },
    sort: keys,
  })
}

const local = (day: number, hour: number, minute = 0) => new Date(2026, 11, day, hour, minute).toISOString()
const person = (id: number, name: string) => ({ id, name })
const EMILIE = person(3, 'Émilie Laurent')
const PAUL = person(7, 'Paul Martin')

const card = (overrides: Partial<MediationCard>): MediationCard => ({
  id: 1,
  title: 'Mediation',
  description: '',
  status: 'created',
  schedulingDate: null,
  executionStart: null,
  executionStop: null,
  creator: EMILIE,
  mediator: PAUL,
  lastUpdate: { userId: 3, userName: 'Émilie Laurent', date: local(1, 8) },
  ...overrides,
})

const MEDIATIONS = [
  card({ id: 1, title: 'Réglage du tour', description: 'Première ligne\nDeuxième ligne', status: 'created', schedulingDate: local(2, 9, 30) }),
  card({ id: 2, title: 'Panne de la presse', status: 'paused', schedulingDate: local(1, 8), executionStart: local(1, 10) }),
  card({ id: 3, title: 'Tri des déchets', status: 'validated', executionStart: local(1, 10), executionStop: local(1, 11, 15) }),
  card({ id: 4, title: 'Rangement', status: 'canceled', schedulingDate: local(3, 14), mediator: null }),
]

function renderMediations(entry = '/mediations', answer: (filter: string) => MediationCard[] = () => MEDIATIONS) {
  const fetchMock = fakeServer({
    [QUERY]: async (request) => {
      const { filter } = (await request.clone().json()) as { filter: string }
      const results = answer(filter)
      return json({ results, totalItems: results.length })
    },
    'GET /backend/api/v2/querylang/mediation/fields': () =>
      json({ entityType: 'mediation', fields: FIELDS, defaultSort: [{ field: 'last_update', descending: true }] }),
    'POST /backend/api/v2/querylang/mediation/parse': parseAnswer,
    'GET /backend/api/v2/account/filters': () => json({}),
    [SEARCH]: () => json([{ id: 7, displayName: 'Paul Martin', login: 'paul', firstName: 'Paul', lastName: 'Martin', externalId: null }]),
    [NAMES]: async (request) => json(((await request.clone().json()) as number[]).map((id) => [EMILIE, PAUL].find((p) => p.id === id))),
  })
  const element = (
    <VirtuosoMockContext.Provider value={{ viewportHeight: 2000, itemHeight: 80 }}>
      <MediationsPage />
    </VirtuosoMockContext.Provider>
  )
  const rendered = renderRoutes([{ path: 'mediations/:filter?', element }], `/spotv2${entry}`)
  return { ...rendered, fetchMock }
}

const steps = (article: HTMLElement) =>
  within(article)
    .getAllByRole('listitem')
    .map((step) => `${step.textContent}:${step.dataset.state}`)

describe('filtered mediations', () => {
  it('lists the mediations through POST /mediation/query, each card linking to its page', async () => {
    const { fetchMock } = renderMediations()
    const first = await screen.findByRole('article', { name: 'Réglage du tour' })
    expect(screen.getByRole('heading', { name: 'Mediations' })).toBeInTheDocument()
    expect(document.title).toBe('Mediations - Spot')
    expect(screen.getByText('4 mediations')).toBeInTheDocument()
    expect(await sentRequests(fetchMock, QUERY)[0].json()).toEqual({ filter: '', sort: '', page: 1, pageSize: 50 })
    expect(within(first).getByRole('link', { name: 'Réglage du tour' })).toHaveAttribute('href', '/spotv2/mediation/view/1')
    expect(within(first).getByText('Mediator: Paul Martin · Last update: Émilie Laurent, 2026-12-01 08:00')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'New mediation' })).toHaveAttribute('href', '/spotv2/mediation/add')
    expect(screen.getByRole('link', { name: 'Create and start' })).toHaveAttribute('href', '/spotv2/mediation/add?mode=start')
  })

  it('shows the description’s first line, with an ellipsis when more lines follow', async () => {
    renderMediations()
    const first = await screen.findByRole('article', { name: 'Réglage du tour' })
    expect(within(first).getByText('Première ligne…')).toBeInTheDocument()
    expect(within(first).queryByText(/Deuxième ligne/)).not.toBeInTheDocument()
  })

  it('dates each card by its status: schedule, start, or start-to-end range', async () => {
    renderMediations()
    expect(within(await screen.findByRole('article', { name: 'Réglage du tour' })).getByText('Scheduled on 2026-12-02 09:30')).toBeInTheDocument()
    expect(within(screen.getByRole('article', { name: 'Panne de la presse' })).getByText('Started on 2026-12-01 10:00')).toBeInTheDocument()
    expect(within(screen.getByRole('article', { name: 'Tri des déchets' })).getByText('From 2026-12-01 10:00 to 2026-12-01 11:15')).toBeInTheDocument()
  })

  it('dates a mediation run within one minute by that minute, not from and to the same time', async () => {
    const short = card({ id: 5, title: 'Point express', status: 'stopped', executionStart: local(1, 13, 41), executionStop: local(1, 13, 41) })
    renderMediations('/mediations', () => [short])
    expect(within(await screen.findByRole('article', { name: 'Point express' })).getByText('On 2026-12-01 13:41 (1 min)')).toBeInTheDocument()
  })

  it('shows the steps reached, and a canceled mediation as a single canceled label', async () => {
    renderMediations()
    const created = await screen.findByRole('article', { name: 'Réglage du tour' })
    expect(steps(created)).toEqual(['In progress:toCome', 'Stopped:toCome', 'Validated:toCome', 'Archived:toCome'])
    const paused = screen.getByRole('article', { name: 'Panne de la presse' })
    expect(steps(paused)).toEqual(['In progress:current', 'Stopped:toCome', 'Validated:toCome', 'Archived:toCome'])
    expect(within(paused).getByRole('listitem', { current: 'step' })).toHaveAccessibleName('In progress: current step')
    const validated = screen.getByRole('article', { name: 'Tri des déchets' })
    expect(steps(validated)).toEqual(['In progress:done', 'Stopped:done', 'Validated:current', 'Archived:toCome'])
    const canceled = screen.getByRole('article', { name: 'Rangement' })
    expect(within(canceled).queryByRole('list')).not.toBeInTheDocument()
    expect(within(canceled).getByText('Canceled')).toBeInTheDocument()
    expect(within(canceled).getByText('No mediator · Last update: Émilie Laurent, 2026-12-01 08:00')).toBeInTheDocument()
  })

  it('filters by mediator, found by name on the server', async () => {
    const { router, fetchMock } = renderMediations('/mediations', (filter) => (filter === '' ? MEDIATIONS : MEDIATIONS.slice(0, 1)))
    await userEvent.click(await screen.findByRole('button', { name: 'Filter' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Add a criterion' }))
    const row = screen.getByRole('group', { name: 'Criterion 1' })
    await userEvent.click(within(row).getByRole('combobox', { name: 'Field' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Mediator' }))
    await userEvent.type(within(row).getByRole('combobox', { name: 'Value' }), 'paul')
    await userEvent.click(await screen.findByRole('option', { name: 'Paul Martin' }))
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/mediations/mediator%20oneOf%207'))
    expect(await screen.findByText('1 mediation')).toBeInTheDocument()
    expect(await sentRequests(fetchMock, QUERY).at(-1)?.json()).toEqual({ filter: 'mediator oneOf 7', sort: '', page: 1, pageSize: 50 })
  })

  it('names the creators of a filter read from the address', async () => {
    const { fetchMock } = renderMediations(`/mediations/${encodeURIComponent('creator oneOf 3')}`)
    expect(await screen.findByText('Creator is one of Émilie Laurent')).toBeInTheDocument()
    expect(await sentRequests(fetchMock, NAMES)[0].json()).toEqual([3])
  })

  it('says when nothing matches', async () => {
    renderMediations(`/mediations/${encodeURIComponent('status oneOf archived')}`, () => [])
    expect(await screen.findByText('No mediation matches this filter.')).toBeInTheDocument()
    expect(screen.getByText('Status is one of Archived')).toBeInTheDocument()
  })
})
