import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import type { Module, ModuleCan } from './api'
import { ModuleViewPage } from './ModuleViewPage'

const GET = 'GET /backend/api/v2/training/module/4'
const SET_ENABLED = 'POST /backend/api/v2/training/module/4/setEnabled'
const DELETE = 'DELETE /backend/api/v2/training/module/4'
const ALL: ModuleCan = { edit: true, delete: true, setEnabled: true }

function module(changes: Partial<Module> = {}): Module {
  return {
    id: 4,
    name: 'Lockout basics',
    moduleType: 'training',
    reference: { code: 'M-LOTO', label: 'Lockout', description: '' },
    goals: 'Isolate every energy\nbefore working',
    estimatedDuration: 90,
    periodicity: 12,
    passThreshold: 7,
    enabled: true,
    creation: { userId: 1, userName: 'Alice Martin', date: '2026-03-10T09:00:00Z' },
    version: 3,
    usage: { trainingPath: 0, hasAcceptedTrainingPath: false },
    can: ALL,
    moduleItems: [
      {
        type: 'spot',
        spotItemType: 'function',
        spotItemId: 12,
        name: 'Operator',
        context: [
          { id: 1, code: 'LYO', name: 'Lyon', type: 'site' },
          { id: 2, code: 'ASM', name: 'Assembly', type: 'cartography' },
        ],
        readable: true,
      },
      { type: 'spot', spotItemType: 'subject', spotItemId: 13, name: null, context: [], readable: false },
      { type: 'mediation', title: 'Walk the line', description: 'With the team leader\nthen alone' },
      { type: 'url', url: 'https://example.org/guide', label: 'The guide' },
      { type: 'lms', lmsCourseId: 31, lmsType: 'quiz', name: 'Lockout quiz', courseId: 5, found: true, launchMode: 'Review' },
      { type: 'lms', lmsCourseId: null, lmsType: null, name: null, courseId: null, found: false, launchMode: 'Normal' },
    ],
    ...changes,
  }
}

const routes = [
  { path: 'training/module/view/:moduleId', Component: ModuleViewPage },
  { path: 'training/modules', Component: () => null },
  { path: 'training/module/edit/:moduleId', Component: () => null },
  { path: 'training/module/createFrom/:moduleId', Component: () => null },
]

const open = () => renderRoutes(routes, '/spotv2/training/module/view/4')
const actions = () => within(screen.getByRole('group', { name: 'Actions' }))

describe('the module view', () => {
  it('shows every field and the elements in order, each by its kind', async () => {
    fakeServer({ [GET]: () => json(module()) })
    open()
    expect(await screen.findByRole('heading', { name: 'Lockout basics' })).toBeInTheDocument()
    const facts = within(screen.getByRole('region', { name: 'Module details' }))
    for (const text of ['Training', 'M-LOTO — Lockout', '1 H 30 Mn', 'Every 12 months', '7 / 10', 'Used in no training path']) {
      expect(facts.getByText(text)).toBeInTheDocument()
    }
    const items = within(screen.getByRole('region', { name: '6 elements' })).getAllByRole('listitem')
    expect(within(items[0]).getByRole('link', { name: 'Operator' })).toHaveAttribute('href', '/spotv2/function/12')
    expect(items[0]).toHaveTextContent('Lyon › Assembly')
    expect(items[1]).toHaveTextContent('Insufficient rights to view')
    expect(within(items[1]).queryByRole('link')).toBeNull()
    expect(items[2]).toHaveTextContent('Walk the line')
    expect(items[2]).toHaveTextContent('With the team leader…')
    expect(items[2]).not.toHaveTextContent('then alone')
    const link = within(items[3]).getByRole('link', { name: /The guide/ })
    expect(link).toHaveAttribute('href', 'https://example.org/guide')
    expect(link).toHaveAttribute('target', '_blank')
    expect(items[4]).toHaveTextContent('Lockout quiz (quiz)Review: to revisit, nothing recorded')
    expect(items[5]).not.toHaveTextContent('Normal')
    expect(items[5]).toHaveTextContent('LMS element not found (deleted ?)')
  })

  it('offers every action the server allows', async () => {
    fakeServer({ [GET]: () => json(module()) })
    open()
    await screen.findByRole('heading', { name: 'Lockout basics' })
    expect(actions().getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/spotv2/training/module/edit/4')
    expect(actions().getByRole('link', { name: 'Create from' })).toHaveAttribute('href', '/spotv2/training/module/createFrom/4')
    expect(actions().getByRole('button', { name: 'Disable' })).toBeInTheDocument()
    expect(actions().getByRole('button', { name: 'Delete' })).toBeInTheDocument()
    expect(actions().getByRole('link', { name: 'Back to the list' })).toHaveAttribute('href', '/spotv2/training/modules')
  })

  it('refuses edit with the reason once an accepted path uses the module, and hides delete while a path uses it', async () => {
    fakeServer({
      [GET]: () => json(module({ usage: { trainingPath: 2, hasAcceptedTrainingPath: true }, can: { edit: false, delete: false, setEnabled: true } })),
    })
    open()
    await screen.findByRole('heading', { name: 'Lockout basics' })
    const edit = actions().getByRole('link', { name: 'Edit' })
    expect(edit).toHaveAttribute('aria-disabled', 'true')
    expect(edit).toHaveAccessibleDescription('An accepted training path uses this module: it can no longer be edited.')
    expect(actions().queryByRole('button', { name: 'Delete' })).toBeNull()
    expect(screen.getByText('Used in 2 training paths')).toBeInTheDocument()
  })

  it('enables a disabled module and shows what the server answers', async () => {
    const fetch = fakeServer({
      [GET]: () => json(module({ enabled: false })),
      [SET_ENABLED]: () => json(module({ enabled: true })),
    })
    open()
    await screen.findByRole('heading', { name: 'Lockout basics' })
    expect(screen.getByText('Disabled')).toBeInTheDocument()
    await userEvent.click(actions().getByRole('button', { name: 'Enable' }))
    expect(await actions().findByRole('button', { name: 'Disable' })).toBeInTheDocument()
    expect(await sentRequests(fetch, SET_ENABLED)[0].json()).toEqual({ enabled: true })
    expect(screen.getByText('Module enabled')).toBeInTheDocument()
  })

  it('hides enable and disable when the server does not allow them', async () => {
    fakeServer({ [GET]: () => json(module({ can: { edit: true, delete: true, setEnabled: false } })) })
    open()
    await screen.findByRole('heading', { name: 'Lockout basics' })
    expect(actions().queryByRole('button', { name: 'Disable' })).toBeNull()
  })

  it('deletes after a confirmation and goes back to the list', async () => {
    const fetch = fakeServer({ [GET]: () => json(module()), [DELETE]: () => new Response(null, { status: 204 }) })
    const { router } = open()
    await screen.findByRole('heading', { name: 'Lockout basics' })
    await userEvent.click(actions().getByRole('button', { name: 'Delete' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete the module?' })
    expect(sentRequests(fetch, DELETE)).toHaveLength(0)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/training/modules'))
    expect(sentRequests(fetch, DELETE)).toHaveLength(1)
  })

  it('shows NotFound for an unknown module', async () => {
    fakeServer({ [GET]: () => errorBody(404, 'Not Found', 'notFound') })
    open()
    expect(await screen.findByText('The page or information sought was not found')).toBeInTheDocument()
  })
})
