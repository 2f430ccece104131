import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import axe from 'axe-core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { EditQualificationPage, NewQualificationPage } from './QualificationFormPage'
import { NOTHING, qualification } from './testData'
import { sessionCan } from '../../test/session'

const API = '/backend/api/v2'
const CREATE = `POST ${API}/qualifications`
const UPDATE = `POST ${API}/qualifications/9`

function server(extra: Parameters<typeof fakeServer>[0] = {}) {
  return fakeServer({
    [`GET ${API}/account/whoAmI`]: () => json({ id: 3, login: 'alice', displayName: 'Alice Martin', permissions: ['perm_QualificationAdmin'], can: sessionCan({ createQualifications: true, editRequalification: true }) }),
    [`GET ${API}/cartography`]: () => json([{ id: 2, code: 'AM', name: 'Atelier mécanique', imageWidth: 10, imageHeight: 10, site: { id: 1, name: 'Lyon' } }]),
    [`GET ${API}/user/searchGroup`]: () => json([{ id: 7, name: 'Opérateurs' }]),
    [`GET ${API}/training/module/search`]: () => json([{ id: 31, name: 'Consignation', moduleType: 'training', enabled: true, reference: null }]),
    [`GET ${API}/qualifications/9`]: () => json(qualification({ can: { ...NOTHING, edit: true, delete: true } })),
    [`GET ${API}/cartography/2/functions`]: () =>
      json([
        { id: 52, code: 'F2', name: 'Contrôleur' },
        { id: 51, code: 'F1', name: 'Régleur' },
      ]),
    [`GET ${API}/user/search`]: () => json([{ id: 6, displayName: 'Rémi Référent' }]),
    ...extra,
  })
}

const routes = [
  { path: 'qualification/add', Component: NewQualificationPage },
  { path: 'qualification/edit/:qualificationId', Component: EditQualificationPage },
  { path: 'qualification/view/:qualificationId', Component: () => null },
  { path: 'qualifications', Component: () => null },
  { path: 'forbidden', Component: () => null },
]

/** Where the page led (the router's address, base path included). */
const at = async (router: { state: { location: { pathname: string } } }, pathname: string) =>
  waitFor(() => expect(router.state.location.pathname).toBe(`/spotv2${pathname}`))

const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }))

afterEach(() => vi.unstubAllGlobals())

describe('new qualification', () => {
  it('blocks an empty save with a message on each required field', async () => {
    const fetchMock = server()
    renderRoutes(routes, '/spotv2/qualification/add')
    await screen.findByRole('heading', { level: 1, name: 'New qualification' })
    await save()
    expect(await screen.findByText('At least one error remains to be corrected')).toBeInTheDocument()
    expect(screen.getAllByText("This field can't stay empty")).toHaveLength(3)
    expect(sentRequests(fetchMock, CREATE)).toHaveLength(0)
  })

  it('refuses a name with whitespace at an end', async () => {
    server()
    renderRoutes(routes, '/spotv2/qualification/add')
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), ' Habilitation')
    await save()
    expect(await screen.findByText('Text may not begin or end with whitespace')).toBeInTheDocument()
  })

  it('creates with the chosen groups, modules and cartographies, then opens the view', async () => {
    const fetchMock = server({ [CREATE]: () => json({ id: 12 }) })
    const { router } = renderRoutes(routes, '/spotv2/qualification/add')
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Habilitation')
    await userEvent.type(screen.getByRole('combobox', { name: 'Groups' }), 'Opé')
    await userEvent.click(await screen.findByRole('option', { name: 'Opérateurs' }))
    await userEvent.type(screen.getByRole('combobox', { name: 'Modules' }), 'Cons')
    await userEvent.click(await screen.findByRole('option', { name: 'Consignation' }))
    await userEvent.click(screen.getByRole('combobox', { name: 'Cartographies' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Atelier mécanique' }))
    await save()
    await at(router, '/qualification/view/12')
    const [request] = sentRequests(fetchMock, CREATE)
    expect(await request.json()).toEqual({
      name: 'Habilitation',
      cartographies: [2],
      qualifiableGroups: [7],
      modules: [31],
      functions: [],
      requalificationWindowDays: 60,
      defaultReferents: [],
    })
  })

  it('shows the grouped options of the cartographies and functions as a listbox of named groups, without an axe violation', async () => {
    server()
    const { container } = renderRoutes(routes, '/spotv2/qualification/add')
    await userEvent.click(await screen.findByRole('combobox', { name: 'Cartographies' }))
    const cartographies = await screen.findByRole('listbox')
    expect(within(cartographies).getByRole('group', { name: 'Lyon' })).toContainElement(within(cartographies).getByRole('option', { name: 'Atelier mécanique' }))
    const serious = async () =>
      (await axe.run(container.ownerDocument.body)).violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)
    expect(await serious()).toEqual([])
    await userEvent.click(within(cartographies).getByRole('option', { name: 'Atelier mécanique' }))
    await userEvent.click(screen.getByRole('combobox', { name: 'Functions it qualifies for' }))
    const functions = await screen.findByRole('listbox')
    expect(within(within(functions).getByRole('group', { name: 'Atelier mécanique' })).getAllByRole('option')).toHaveLength(2)
    expect(await serious()).toEqual([])
  })

  it('picks the functions it opens among its cartographies, the window and the default referents', async () => {
    const fetchMock = server({ [CREATE]: () => json({ id: 12 }) })
    const { router } = renderRoutes(routes, '/spotv2/qualification/add')
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Habilitation')
    await userEvent.type(screen.getByRole('combobox', { name: 'Groups' }), 'Opé')
    await userEvent.click(await screen.findByRole('option', { name: 'Opérateurs' }))
    await userEvent.type(screen.getByRole('combobox', { name: 'Modules' }), 'Cons')
    await userEvent.click(await screen.findByRole('option', { name: 'Consignation' }))
    // No cartography yet: no function to pick.
    expect(screen.getByRole('combobox', { name: 'Functions it qualifies for' })).toBeDisabled()
    expect(screen.getByText('Choose a cartography first: the functions are those of its cartographies.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('combobox', { name: 'Cartographies' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Atelier mécanique' }))
    await userEvent.click(screen.getByRole('combobox', { name: 'Functions it qualifies for' }))
    const listbox = await screen.findByRole('listbox')
    // Grouped under their cartography, by name.
    expect(within(listbox).getByText('Atelier mécanique')).toBeInTheDocument()
    expect(within(listbox).getAllByRole('option').map((option) => option.textContent)).toEqual(['Contrôleur', 'Régleur'])
    await userEvent.click(within(listbox).getByRole('option', { name: 'Régleur' }))
    const window = screen.getByRole('textbox', { name: 'Requalification window' })
    await userEvent.clear(window)
    await userEvent.type(window, '4000')
    await save()
    expect(await screen.findByText('The value is out of the allowed range')).toBeInTheDocument()
    expect(sentRequests(fetchMock, CREATE)).toHaveLength(0)
    await userEvent.clear(window)
    await userEvent.type(window, '90')
    await userEvent.type(screen.getByRole('combobox', { name: 'Default referents' }), 'Rém')
    await userEvent.click(await screen.findByRole('option', { name: 'Rémi Référent' }))
    await save()
    await at(router, '/qualification/view/12')
    const [request] = sentRequests(fetchMock, CREATE)
    expect(await request.json()).toMatchObject({ cartographies: [2], functions: [51], requalificationWindowDays: 90, defaultReferents: [6] })
  })

  it('shows the requalification fields read-only to a creator who is no qualification administrator', async () => {
    server({ [`GET ${API}/account/whoAmI`]: () => json({ id: 3, login: 'alice', displayName: 'Alice Martin', permissions: ['perm_TableauBord'], can: sessionCan({ createQualifications: true }) }) })
    renderRoutes(routes, '/spotv2/qualification/add')
    const window = await screen.findByRole('textbox', { name: 'Requalification window' })
    await waitFor(() => expect(window).toHaveAttribute('readonly'))
    expect(window).toHaveValue('60')
    expect(screen.getAllByText('Only qualification administrators change these fields.').length).toBeGreaterThan(0)
  })

  it('cancels back to the list', async () => {
    server()
    const { router } = renderRoutes(routes, '/spotv2/qualification/add')
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }))
    await at(router, '/qualifications')
  })
})

describe('edit qualification', () => {
  it('saves with the version read, and shows the server keys on their fields', async () => {
    let answer = errorBody(422, 'Unprocessable Entity', 'validationError', [{ field: 'modules', code: 'invalidValue' }])
    const fetchMock = server({ [UPDATE]: () => answer })
    const { router } = renderRoutes(routes, '/spotv2/qualification/edit/9')
    const name = await screen.findByRole('textbox', { name: 'Name' })
    expect(name).toHaveValue('Habilitation électrique')
    await save()
    expect(await screen.findByText('Invalid value')).toBeInTheDocument()
    expect(screen.getByText('At least one error remains to be corrected')).toBeInTheDocument()
    const [request] = sentRequests(fetchMock, UPDATE)
    expect(await request.json()).toEqual({
      name: 'Habilitation électrique',
      cartographies: [2],
      qualifiableGroups: [7],
      modules: [31, 32],
      functions: [51],
      requalificationWindowDays: 60,
      defaultReferents: [6],
      version: 2,
    })
    answer = json(qualification({ version: 3, can: { ...NOTHING, edit: true, delete: true } }))
    await save()
    await at(router, '/qualification/view/9')
  })

  it('shows a server refusal of the requalification fields on them', async () => {
    server({
      [UPDATE]: () =>
        errorBody(422, 'Unprocessable Entity', 'atLeastOneErrorLeft', [
          { field: 'functions', code: 'invalidValue' },
          { field: 'requalificationWindowDays', code: 'valueMustBeBetween' },
        ]),
    })
    renderRoutes(routes, '/spotv2/qualification/edit/9')
    expect(await screen.findByRole('textbox', { name: 'Requalification window' })).toHaveValue('60')
    expect(await screen.findByRole('button', { name: 'Régleur' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Rémi Référent' })).toBeInTheDocument()
    await save()
    expect(await screen.findByText('Invalid value')).toBeInTheDocument()
    expect(screen.getByText('The value is out of the allowed range')).toBeInTheDocument()
  })

  it('says the qualification was saved meanwhile on a stale version, keeping what was typed', async () => {
    server({ [UPDATE]: () => errorBody(409, 'Conflict', 'staleVersion') })
    renderRoutes(routes, '/spotv2/qualification/edit/9')
    const name = await screen.findByRole('textbox', { name: 'Name' })
    await userEvent.clear(name)
    await userEvent.type(name, 'Autre nom')
    await save()
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByRole('button', { name: 'Read again' })).toBeInTheDocument()
    expect(name).toHaveValue('Autre nom')
  })

  it('sends those who may not edit to Forbidden', async () => {
    server({ [`GET ${API}/qualifications/9`]: () => json(qualification()) })
    const { router } = renderRoutes(routes, '/spotv2/qualification/edit/9')
    await at(router, '/forbidden')
  })
})
