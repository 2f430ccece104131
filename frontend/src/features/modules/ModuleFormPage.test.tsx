import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import type { Module } from './api'
import { CreateFromModulePage, EditModulePage, NewModulePage } from './ModuleFormPage'

const API = '/backend/api/v2'
const CREATE = `POST ${API}/training/module`
const UPDATE = `POST ${API}/training/module/4`

const MAP = {
  [`GET ${API}/site`]: () => json([{ id: 1, code: 'LYO', name: 'Lyon', cartographies: [{ id: 2, code: 'ASM', name: 'Assembly' }] }]),
  [`GET ${API}/cartography/2/activities`]: () => json([]),
  [`GET ${API}/cartography/2/functions`]: () => json([{ id: 5, code: 'OP', name: 'Operator' }]),
  [`GET ${API}/training/references/module/search`]: () => json([]),
}

function existing(changes: Partial<Module> = {}): Module {
  return {
    id: 4,
    name: 'Lockout basics',
    moduleType: 'training',
    reference: null,
    goals: 'Isolate every energy',
    estimatedDuration: 120,
    periodicity: 0,
    passThreshold: 7,
    enabled: true,
    creation: { userId: 1, userName: 'Alice Martin', date: '2026-03-10T09:00:00Z' },
    version: 3,
    usage: { trainingPath: 0, hasAcceptedTrainingPath: false },
    can: { edit: true, delete: true, setEnabled: true },
    moduleItems: [
      { type: 'mediation', title: 'Walk the line', description: 'With the team leader' },
      { type: 'url', url: 'https://example.org/guide', label: 'The guide' },
    ],
    ...changes,
  }
}

const routes = [
  { path: 'training/module/add', Component: NewModulePage },
  { path: 'training/module/edit/:moduleId', Component: EditModulePage },
  { path: 'training/module/createFrom/:moduleId', Component: CreateFromModulePage },
  { path: 'training/module/view/:moduleId', Component: () => null },
  { path: 'training/modules', Component: () => null },
]

const textbox = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) })
const elementRows = () => within(screen.getByRole('list', { name: 'Elements' })).getAllByRole('listitem')

async function addElement(kind: string) {
  await userEvent.click(screen.getByRole('button', { name: 'Add an element' }))
  await userEvent.click(screen.getByRole('menuitem', { name: kind }))
}

async function addMediation(title: string, description: string) {
  await addElement('Mediation')
  const dialog = screen.getByRole('dialog', { name: 'New mediation element' })
  await userEvent.type(within(dialog).getByRole('textbox', { name: /^Title/ }), title)
  await userEvent.type(within(dialog).getByRole('textbox', { name: /^Description/ }), description)
  await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }))
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
}

describe('the new module form', () => {
  it('refuses to save without name, goals and an element, and tells why', async () => {
    const fetch = fakeServer(MAP)
    renderRoutes(routes, '/spotv2/training/module/add')
    expect(await screen.findByRole('heading', { name: 'New training module' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('At least one error remains to be corrected')).toBeInTheDocument()
    expect(textbox('Name')).toHaveAccessibleDescription("This field can't stay empty")
    expect(textbox('Goals')).toHaveAccessibleDescription("This field can't stay empty")
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain("This field can't stay empty")
    expect(sentRequests(fetch, CREATE)).toHaveLength(0)
  })

  it('checks the duration and the periodicity as digits without a leading zero', async () => {
    fakeServer(MAP)
    renderRoutes(routes, '/spotv2/training/module/add')
    await userEvent.type(await screen.findByRole('textbox', { name: /^Estimated duration/ }), '02')
    await userEvent.click(screen.getByRole('switch', { name: 'Periodic' }))
    await userEvent.type(textbox('Periodicity'), '0')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    const message = 'Integer, non-zero numeric value expected'
    expect(await screen.findByRole('textbox', { name: /^Estimated duration/, description: message })).toBeInTheDocument()
    expect(textbox('Periodicity')).toHaveAccessibleDescription(message)
  })

  it('saves a module with its elements in the order chosen, the duration in minutes', async () => {
    const fetch = fakeServer({ ...MAP, [CREATE]: () => json({ id: 9 }) })
    const { router } = renderRoutes(routes, '/spotv2/training/module/add')
    await userEvent.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Lockout basics')
    await userEvent.type(textbox('Goals'), 'Isolate every energy')
    await userEvent.type(textbox('Estimated duration'), '3')
    expect(screen.getByText('Pass threshold: 10 / 10')).toBeInTheDocument()
    screen.getByRole('slider').focus()
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}')
    expect(screen.getByText('Pass threshold: 8 / 10')).toBeInTheDocument()

    await addMediation('Walk the line', 'With the team leader')

    await addElement('Web link')
    const dialog = screen.getByRole('dialog', { name: 'New web link' })
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Address/ }), 'example.org')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Label/ }), 'The guide')
    expect(within(dialog).queryByRole('link', { name: 'Test' })).toBeNull()
    await userEvent.clear(within(dialog).getByRole('textbox', { name: /^Address/ }))
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Address/ }), 'https://example.org/guide')
    const test = within(dialog).getByRole('link', { name: 'Test' })
    expect(test).toHaveAttribute('href', 'https://example.org/guide')
    expect(test).toHaveAttribute('target', '_blank')
    await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }))

    await addElement('Spot element')
    const picker = await screen.findByRole('dialog', { name: 'Choose an item of the map' })
    const site = await within(picker).findByRole('treeitem', { name: /^Lyon/ })
    site.focus()
    await userEvent.keyboard('{ArrowRight}{ArrowDown}{ArrowRight}')
    await within(picker).findByRole('treeitem', { name: /^Operator/ })
    await userEvent.keyboard('{ArrowDown}[Space]')
    await userEvent.click(within(picker).getByRole('button', { name: 'Choose' }))

    expect(elementRows().map((row) => row.getAttribute('aria-label'))).toEqual([
      'Element 1: Walk the line',
      'Element 2: The guide',
      'Element 3: Operator (Function)',
    ])
    // The spot element goes first, by keyboard.
    within(elementRows()[2]).getByRole('button', { name: 'Move element 3 up' }).focus()
    await userEvent.keyboard('{Enter}')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move element 2 up' })).toHaveFocus())
    await userEvent.keyboard('{Enter}')
    expect(elementRows()[0]).toHaveAccessibleName('Element 1: Operator (Function)')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move element 1 down' })).toHaveFocus())
    expect(screen.getByRole('button', { name: 'Move element 1 up' })).toBeDisabled()

    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/training/module/view/9'))
    expect(await sentRequests(fetch, CREATE)[0].json()).toEqual({
      name: 'Lockout basics',
      moduleType: 'other',
      goals: 'Isolate every energy',
      estimatedDuration: 180,
      reference: null,
      periodicity: 0,
      passThreshold: 8,
      moduleItems: [
        { type: 'spot', spotItemType: 'function', spotItemId: 5 },
        { type: 'mediation', title: 'Walk the line', description: 'With the team leader' },
        { type: 'url', url: 'https://example.org/guide', label: 'The guide' },
      ],
    })
  })

  it('shows the server errors on their fields and elements, keeping what was typed', async () => {
    fakeServer({
      ...MAP,
      [CREATE]: () =>
        errorBody(400, 'Bad Request', 'Bad Request', [
          { field: 'name', code: 'emptyFieldError' },
          { field: 'moduleItems[0].description', code: 'beginEndWhitespaceError' },
        ]),
    })
    renderRoutes(routes, '/spotv2/training/module/add')
    await userEvent.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Lockout basics')
    await userEvent.type(textbox('Goals'), 'Isolate every energy')
    await addMediation('Walk the line', 'With the team leader')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Text may not begin or end with whitespace')).toBeInTheDocument()
    expect(within(elementRows()[0]).getByText('Text may not begin or end with whitespace')).toBeInTheDocument()
    expect(textbox('Name')).toHaveValue('Lockout basics')
    expect(textbox('Name')).toHaveAccessibleDescription("This field can't stay empty")
  })
})

describe('editing and creating from a module', () => {
  it('edits an element in its dialog, removes another, and sends the version read', async () => {
    const fetch = fakeServer({ [`GET ${API}/training/module/4`]: () => json(existing()), [UPDATE]: () => json(existing({ version: 4 })), ...MAP })
    const { router } = renderRoutes(routes, '/spotv2/training/module/edit/4')
    expect(await screen.findByRole('heading', { name: 'Editing the training module' })).toBeInTheDocument()
    expect(textbox('Estimated duration')).toHaveValue('2')
    await userEvent.click(screen.getByRole('button', { name: 'Edit element 2' }))
    const dialog = screen.getByRole('dialog', { name: 'Web link' })
    expect(within(dialog).getByRole('link', { name: 'Test' })).toBeInTheDocument()
    await userEvent.clear(within(dialog).getByRole('textbox', { name: /^Label/ }))
    expect(within(dialog).queryByRole('link', { name: 'Test' })).toBeNull()
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Label/ }), 'Guide')
    await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await userEvent.click(screen.getByRole('button', { name: 'Remove element 1' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/training/module/view/4'))
    expect(await sentRequests(fetch, UPDATE)[0].json()).toMatchObject({
      version: 3,
      estimatedDuration: 120,
      moduleItems: [{ type: 'url', url: 'https://example.org/guide', label: 'Guide' }],
    })
  })

  it('keeps the launch mode of a learning-platform element and sends the one chosen', async () => {
    const lms = { type: 'lms' as const, lmsCourseId: 31, lmsType: 'quiz' as const, name: 'Lockout quiz', courseId: 5, found: true, launchMode: 'Normal' as const }
    const fetch = fakeServer({ [`GET ${API}/training/module/4`]: () => json(existing({ moduleItems: [lms] })), [UPDATE]: () => json(existing({ version: 4 })), ...MAP })
    renderRoutes(routes, '/spotv2/training/module/edit/4')
    const row = within(await screen.findByRole('listitem', { name: 'Element 1: Lockout quiz (quiz)' }))
    const mode = row.getByRole('combobox', { name: /^Opens in/ })
    expect(mode).toHaveTextContent('Normal: results recorded')
    await userEvent.click(mode)
    await userEvent.click(screen.getByRole('option', { name: 'Browse: to look through, nothing recorded' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sentRequests(fetch, UPDATE)).toHaveLength(1))
    expect(await sentRequests(fetch, UPDATE)[0].json()).toMatchObject({ moduleItems: [{ type: 'lms', lmsCourseId: 31, launchMode: 'Browse' }] })
  })

  it('shows no form, only the reason, once an accepted path uses the module', async () => {
    fakeServer({
      [`GET ${API}/training/module/4`]: () =>
        json(existing({ usage: { trainingPath: 1, hasAcceptedTrainingPath: true }, can: { edit: false, delete: false, setEnabled: true } })),
      ...MAP,
    })
    renderRoutes(routes, '/spotv2/training/module/edit/4')
    expect(await screen.findByText('An accepted training path uses this module: it can no longer be edited.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull()
    expect(screen.getByRole('link', { name: 'Back to the module' })).toHaveAttribute('href', '/spotv2/training/module/view/4')
  })

  it('tells of a change made meanwhile and keeps what was typed', async () => {
    fakeServer({ [`GET ${API}/training/module/4`]: () => json(existing()), [UPDATE]: () => errorBody(409, 'Conflict', 'staleVersion'), ...MAP })
    renderRoutes(routes, '/spotv2/training/module/edit/4')
    await userEvent.type(await screen.findByRole('textbox', { name: /^Name/ }), ' 2')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText(/Someone changed this module meanwhile/)).toBeInTheDocument()
    expect(textbox('Name')).toHaveValue('Lockout basics 2')
  })

  it('tells when an accepted path uses the module meanwhile', async () => {
    fakeServer({ [`GET ${API}/training/module/4`]: () => json(existing()), [UPDATE]: () => errorBody(409, 'Conflict', 'trainingModuleUsedByAcceptedPath'), ...MAP })
    renderRoutes(routes, '/spotv2/training/module/edit/4')
    await screen.findByRole('heading', { name: 'Editing the training module' })
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('An accepted training path uses this module: it can no longer be changed')).toBeInTheDocument()
  })

  it('creates a new module from another one, prefilled', async () => {
    const fetch = fakeServer({ [`GET ${API}/training/module/4`]: () => json(existing()), [CREATE]: () => json({ id: 10 }), ...MAP })
    const { router } = renderRoutes(routes, '/spotv2/training/module/createFrom/4')
    expect(await screen.findByRole('heading', { name: 'New training module from another' })).toBeInTheDocument()
    expect(textbox('Name')).toHaveValue('Lockout basics')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/training/module/view/10'))
    expect(sentRequests(fetch, UPDATE)).toHaveLength(0)
    const body = (await sentRequests(fetch, CREATE)[0].json()) as Record<string, unknown>
    expect(body).not.toHaveProperty('version')
    expect(body).toMatchObject({ name: 'Lockout basics', passThreshold: 7, moduleItems: existing().moduleItems })
  })
})
