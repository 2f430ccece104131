import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import axe from 'axe-core'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes } from '../../../test/render'
import { errorBody, json } from '../../../test/server'
import { MindMapPage } from './MindMapPage'
import type { MindMap, MindMapCan, MindMapNode, NodeCan, NodeStatus } from './types'

const BASE = '/backend/api/v2/subject/5/mindmap'

// What @xyflow/react measures with, which jsdom lacks.
class FakeResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
class FakeDOMMatrix {
  m22: number
  constructor(transform?: string) {
    this.m22 = Number(/scale\(([\d.]+)\)/.exec(transform ?? '')?.[1] ?? 1)
  }
}

function phoneWidth(phone: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: phone && query.includes('max-width'),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    onchange: null,
    dispatchEvent: () => false,
  }))
}

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', FakeResizeObserver)
  vi.stubGlobal('DOMMatrixReadOnly', FakeDOMMatrix)
  phoneWidth(false)
  // The canvas's size, so that fitting the map gives a real zoom.
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(800)
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(500)
})

const node = (code: number, parentCode: number | null, name: string, status: NodeStatus = 'inProgress', position = 0, can?: Partial<NodeCan>): MindMapNode => ({
  id: 100 + code,
  code,
  parentCode,
  position,
  name,
  text: '',
  status,
  createdBy: { id: 3, name: 'Alice Martin' },
  createdAt: '2026-03-10T09:15:00Z',
  updatedBy: null,
  updatedAt: null,
  can: { edit: true, rename: true, delete: parentCode !== null, ...can },
})

/** The server's tree, changed by the calls as the server would. */
class FakeTree {
  tree: MindMap
  requests: { method: string; path: string; body: unknown }[] = []
  /** Answers of the next calls, before the tree is touched (a 409 for instance). */
  nextAnswers: Response[] = []

  constructor(nodes: MindMapNode[], can: Partial<MindMapCan> = {}) {
    this.tree = {
      subjectId: 5,
      subjectName: 'Réglage du tour',
      subjectCode: 'USI-005',
      version: 7,
      lastMindmapUpdate: null,
      standardized: false,
      diagram: null,
      nodes,
      can: { edit: true, validate: false, editDiagram: false, ...can },
    }
    vi.stubGlobal('fetch', vi.fn((request: Request) => this.answer(request)))
  }

  private change(code: number): Response {
    this.tree = { ...this.tree, version: this.tree.version + 1 }
    return json({ version: this.tree.version, code })
  }

  private async answer(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const path = url.pathname
    const body: unknown = request.method === 'GET' || request.method === 'DELETE' ? Object.fromEntries(url.searchParams) : await request.json()
    this.requests.push({ method: request.method, path, body })
    if (request.method === 'GET' && path === BASE) return json(this.tree)
    const planned = this.nextAnswers.shift()
    if (planned) return planned
    const fields = body as { name: string; text: string; parentCode: number; position: number | null; status: NodeStatus }
    const nodes = this.tree.nodes
    const match = /^\/backend\/api\/v2\/subject\/5\/mindmap\/nodes(?:\/(\d+))?(?:\/(move|status))?$/.exec(path)
    if (!match) return errorBody(404, 'Not Found', 'Not Found')
    const code = match[1] === undefined ? undefined : Number(match[1])
    const action = match[2]
    if (request.method === 'POST' && code === undefined) {
      const created = node(Math.max(...nodes.map((n) => n.code)) + 1, fields.parentCode, fields.name)
      created.position = fields.position ?? nodes.filter((n) => n.parentCode === fields.parentCode).length
      this.tree.nodes = [...nodes, { ...created, text: fields.text }]
      return this.change(created.code)
    }
    if (request.method === 'DELETE') {
      this.tree.nodes = nodes.filter((n) => n.code !== code && n.parentCode !== code)
      return this.change(code ?? -1)
    }
    this.tree.nodes = nodes.map((n) =>
      n.code !== code ? n : action === 'status' ? { ...n, status: fields.status } : action === 'move' ? { ...n, parentCode: fields.parentCode } : { ...n, name: fields.name, text: fields.text },
    )
    return this.change(code ?? -1)
  }

  writes() {
    return this.requests.filter((request) => request.method !== 'GET')
  }

  reads() {
    return this.requests.filter((request) => request.method === 'GET').length
  }
}

const routes = [
  { path: 'subject/:subjectId/mindmap', Component: MindMapPage },
  { path: 'subject/:subjectId', Component: () => 'subject page' },
]
const open = (entry = '/spotv2/subject/5/mindmap') => renderRoutes(routes, entry)
const canvas = () => screen.findByRole('application', { name: 'Mind map of Réglage du tour' })
const selectedPanel = () => screen.getByRole('region', { name: 'Selected node' })

describe('the mind-map page', () => {
  it('adds three nodes by keyboard: Tab a child, Shift+Enter a sibling', async () => {
    const server = new FakeTree([node(0, null, 'Réglage du tour')])
    open()
    const map = await canvas()
    expect(screen.getByRole('heading', { level: 1, name: 'Mind map: Réglage du tour' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Réglage du tour' })).toHaveAttribute('href', '/spotv2/subject/5')
    map.focus()

    // Tab adds a child of the main node; the new node is then selected.
    await userEvent.keyboard('{Tab}')
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Causes{Enter}')
    await waitFor(() => expect(within(selectedPanel()).getByRole('heading', { name: 'Causes' })).toBeInTheDocument())
    // Tab again: a child of Causes; then Shift+Enter: its sibling.
    map.focus()
    await userEvent.keyboard('{Tab}')
    expect(await screen.findByRole('dialog', { name: 'New node under Causes' })).toBeInTheDocument()
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Usure{Enter}')
    await waitFor(() => expect(within(selectedPanel()).getByRole('heading', { name: 'Usure' })).toBeInTheDocument())
    map.focus()
    await userEvent.keyboard('{Shift>}{Enter}{/Shift}')
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Réglage{Enter}')
    await waitFor(() => expect(within(selectedPanel()).getByRole('heading', { name: 'Réglage' })).toBeInTheDocument())
    expect(server.writes().map((write) => write.body)).toEqual([
      { version: 7, parentCode: 0, position: null, name: 'Causes', text: '' },
      { version: 8, parentCode: 1, position: null, name: 'Usure', text: '' },
      { version: 9, parentCode: 1, position: 1, name: 'Réglage', text: '' },
    ])
    expect(server.tree.nodes.map(({ code, parentCode, name }) => [code, parentCode, name])).toEqual([
      [0, null, 'Réglage du tour'],
      [1, 0, 'Causes'],
      [2, 1, 'Usure'],
      [3, 1, 'Réglage'],
    ])
  })

  it('moves with the arrows, edits with Enter and deletes with Delete after confirmation', async () => {
    const server = new FakeTree([
      node(0, null, 'Réglage du tour'),
      node(1, 0, 'Causes'),
      node(2, 1, 'Usure', 'inProgress', 0),
      node(3, 1, 'Réglage', 'inProgress', 1),
    ])
    server.tree.version = 10
    open('/spotv2/subject/5/mindmap?node=3')
    const map = await canvas()

    // Arrows: up goes to the previous sibling; Enter edits it.
    map.focus()
    await userEvent.keyboard('{ArrowUp}')
    expect(within(selectedPanel()).getByRole('heading', { name: 'Usure' })).toBeInTheDocument()
    await userEvent.keyboard('{Enter}')
    const name = await screen.findByRole('textbox', { name: 'Name' })
    expect(name).toHaveValue('Usure')
    await userEvent.type(name, ' ')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Text may not begin or end with whitespace')).toBeInTheDocument()
    await userEvent.clear(name)
    await userEvent.type(name, 'Usure de l’outil')
    await userEvent.type(screen.getByRole('textbox', { name: 'Text' }), 'Plaquette à changer')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(server.writes().at(-1)).toEqual({
      method: 'POST',
      path: `${BASE}/nodes/2`,
      body: { version: 10, name: 'Usure de l’outil', text: 'Plaquette à changer' },
    })
    expect(await within(selectedPanel()).findByText('Plaquette à changer')).toBeInTheDocument()

    // Left goes to the parent, Delete asks first and says the nodes under it go too.
    map.focus()
    await userEvent.keyboard('{ArrowLeft}')
    expect(within(selectedPanel()).getByRole('heading', { name: 'Causes' })).toBeInTheDocument()
    await userEvent.keyboard('{Delete}')
    const confirm = await screen.findByRole('dialog', { name: 'Delete the node' })
    expect(confirm).toHaveTextContent('Delete the node Causes? The 2 nodes under it are deleted too.')
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(server.writes().at(-1)).toEqual({ method: 'DELETE', path: `${BASE}/nodes/1`, body: { version: '11' } })
    await waitFor(() => expect(within(selectedPanel()).getByRole('heading', { name: 'Réglage du tour' })).toBeInTheDocument())
  })

  it('never deletes the main node nor gives it a sibling', async () => {
    const server = new FakeTree([node(0, null, 'Réglage du tour')])
    open()
    ;(await canvas()).focus()
    await userEvent.keyboard('{Delete}')
    await userEvent.keyboard('{Shift>}{Enter}{/Shift}')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Add a sibling' })).toBeDisabled()
    expect(server.writes()).toEqual([])
  })

  it('offers validated only to who may validate, and nothing on a validated node without that right', async () => {
    const nodes = [node(0, null, 'Réglage du tour'), node(1, 0, 'Causes', 'validated')]
    new FakeTree(nodes, { validate: false })
    const { unmount } = open()
    await canvas()
    await userEvent.click(screen.getByRole('button', { name: 'Status' }))
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['To validate'])
    await userEvent.keyboard('{Escape}')
    unmount()

    new FakeTree(nodes, { validate: false })
    open('/spotv2/subject/5/mindmap?node=1')
    await canvas()
    expect(within(selectedPanel()).getByRole('heading', { name: 'Causes' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Status' })).toBeDisabled()
  })

  it('sets a status, validated included for who may validate', async () => {
    const server = new FakeTree([node(0, null, 'Réglage du tour'), node(1, 0, 'Causes')], { validate: true })
    open('/spotv2/subject/5/mindmap?node=1')
    await canvas()
    await userEvent.click(screen.getByRole('button', { name: 'Status' }))
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['To validate', 'Validated'])
    await userEvent.click(screen.getByRole('menuitem', { name: 'Validated' }))
    await waitFor(() => expect(server.writes()).toEqual([{ method: 'POST', path: `${BASE}/nodes/1/status`, body: { version: 7, status: 'validated' } }]))
    expect(await within(selectedPanel()).findByText('Validated')).toBeInTheDocument()
  })

  it('keeps what was typed when someone changed the tree meanwhile, and saves with the new version', async () => {
    const server = new FakeTree([node(0, null, 'Réglage du tour'), node(1, 0, 'Causes')])
    open('/spotv2/subject/5/mindmap?node=1')
    ;(await canvas()).focus()
    await userEvent.keyboard('{Enter}')
    const name = await screen.findByRole('textbox', { name: 'Name' })
    await userEvent.clear(name)
    await userEvent.type(name, 'Causes possibles')
    // Someone else saved: the server's tree has moved on.
    server.tree = { ...server.tree, version: 12, nodes: [...server.tree.nodes, node(2, 0, 'Effets', 'inProgress', 1)] }
    server.nextAnswers.push(errorBody(409, 'Conflict', 'staleVersion'))
    const readsBefore = server.reads()
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText(/Someone changed the mind map meanwhile/)).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Causes possibles')
    await waitFor(() => expect(server.reads()).toBeGreaterThan(readsBefore))
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(server.writes().map((write) => write.body)).toEqual([
      { version: 7, name: 'Causes possibles', text: '' },
      { version: 12, name: 'Causes possibles', text: '' },
    ])
  })

  it('draws the nodes with their statuses written; a click selects one', async () => {
    new FakeTree([node(0, null, 'Réglage du tour', 'toValidate'), node(1, 0, 'Causes', 'validated'), node(2, 0, 'Effets', 'empty', 1)])
    open()
    const map = await canvas()
    const causes = await within(map).findByText('Causes')
    expect(causes.parentElement).toHaveTextContent('CausesValidated')
    expect(within(map).getByText('Effets').parentElement).toHaveTextContent('EffetsEmpty')
    // A click alone: d3-drag, behind the canvas's dragging, needs a window on mouse events that jsdom's user events lack.
    fireEvent.click(causes)
    expect(within(selectedPanel()).getByRole('heading', { name: 'Causes' })).toBeInTheDocument()
    expect(screen.getByText('Selected: Causes, Validated')).toBeInTheDocument()
  })

  it('moves a node under another chosen in a list, never under its own subtree', async () => {
    const server = new FakeTree([node(0, null, 'Réglage du tour'), node(1, 0, 'Causes'), node(2, 1, 'Usure'), node(3, 0, 'Effets', 'inProgress', 1), node(4, 3, 'Rebut')])
    open('/spotv2/subject/5/mindmap?node=1')
    await canvas()
    await userEvent.click(screen.getByRole('button', { name: 'Move' }))
    const dialog = await screen.findByRole('dialog', { name: 'Move Causes' })
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'New parent node' }))
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['Réglage du tour', 'Effets', 'Rebut'])
    await userEvent.click(screen.getByRole('option', { name: 'Rebut' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move' }))
    expect(await screen.findByText('Causes moved under Rebut')).toBeInTheDocument()
    expect(server.writes()).toEqual([{ method: 'POST', path: `${BASE}/nodes/1/move`, body: { version: 7, parentCode: 4, position: 0 } }])
  })

  it('shows no editing control to who may only read', async () => {
    new FakeTree([node(0, null, 'Réglage du tour'), node(1, 0, 'Causes')], { edit: false })
    open()
    ;(await canvas()).focus()
    for (const label of ['Add a child', 'Add a sibling', 'Edit', 'Move', 'Status', 'Delete']) {
      expect(screen.queryByRole('button', { name: label })).not.toBeInTheDocument()
    }
    await userEvent.keyboard('{Tab}')
    await userEvent.keyboard('{Enter}')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Fit to screen' })).toBeInTheDocument()
  })
})

describe('renaming in place', () => {
  const nameField = (name: string) => screen.findByRole('textbox', { name: `Name of ${name}` })
  const withText = (code: number, parentCode: number | null, name: string) => ({ ...node(code, parentCode, name), text: 'Texte gardé' })

  it('renames the selected node with F2 on the canvas: Enter saves the name with the text unchanged', async () => {
    const server = new FakeTree([node(0, null, 'Réglage du tour'), withText(1, 0, 'Causes')])
    open('/spotv2/subject/5/mindmap?node=1')
    const map = await canvas()
    map.focus()
    await userEvent.keyboard('{F2}')
    const field = await nameField('Causes')
    // On the node itself, focused, its text selected: typing replaces it.
    expect(within(map).getByRole('textbox', { name: 'Name of Causes' })).toBe(field)
    expect(field).toHaveFocus()
    expect(field).toHaveValue('Causes')
    expect([(field as HTMLInputElement).selectionStart, (field as HTMLInputElement).selectionEnd]).toEqual([0, 6])
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    // The arrows stay in the field: the selection does not move.
    await userEvent.keyboard('Causes possibles{ArrowLeft}{Enter}')
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Name of Causes' })).not.toBeInTheDocument())
    expect(server.writes()).toEqual([{ method: 'POST', path: `${BASE}/nodes/1`, body: { version: 7, name: 'Causes possibles', text: 'Texte gardé' } }])
    expect(await within(map).findByText('Causes possibles')).toBeInTheDocument()
    expect(await within(selectedPanel()).findByRole('heading', { name: 'Causes possibles' })).toBeInTheDocument()
    expect(map).toHaveFocus()
  })

  it('renames on a double-click; Escape cancels, and a refused name keeps the field with what was typed', async () => {
    const server = new FakeTree([node(0, null, 'Réglage du tour'), node(1, 0, 'Causes'), node(2, 0, 'Effets', 'inProgress', 1)])
    open()
    const map = await canvas()
    fireEvent.doubleClick(await within(map).findByText('Effets'))
    let field = await nameField('Effets')
    expect(field).toHaveFocus()
    expect(within(selectedPanel()).getByRole('heading', { name: 'Effets' })).toBeInTheDocument()
    await userEvent.keyboard('Autre{Escape}')
    expect(screen.queryByRole('textbox', { name: 'Name of Effets' })).not.toBeInTheDocument()
    expect(within(map).getByText('Effets')).toBeInTheDocument()

    fireEvent.doubleClick(within(map).getByText('Effets'))
    field = await nameField('Effets')
    await userEvent.clear(field)
    await userEvent.keyboard('{Enter}')
    const empty = await screen.findByText("This field can't stay empty")
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(empty.id)
    await userEvent.type(field, ' Effets visibles')
    await userEvent.keyboard('{Enter}')
    expect(await screen.findByText('Text may not begin or end with whitespace')).toBeInTheDocument()
    expect(field).toHaveValue(' Effets visibles')
    expect(field).toHaveFocus()
    expect(server.writes()).toEqual([])

    await userEvent.keyboard('{Home}{Delete}{Enter}')
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Name of Effets' })).not.toBeInTheDocument())
    expect(server.writes()).toEqual([{ method: 'POST', path: `${BASE}/nodes/2`, body: { version: 7, name: 'Effets visibles', text: '' } }])
  })

  it('saves when the field is left with a changed name, and sends nothing for an unchanged one', async () => {
    const server = new FakeTree([node(0, null, 'Réglage du tour'), node(1, 0, 'Causes')])
    open('/spotv2/subject/5/mindmap?node=1')
    const map = await canvas()
    map.focus()
    await userEvent.keyboard('{F2}')
    await nameField('Causes')
    await userEvent.keyboard('{Enter}')
    expect(screen.queryByRole('textbox', { name: 'Name of Causes' })).not.toBeInTheDocument()
    await userEvent.keyboard('{F2}')
    await userEvent.keyboard('Origines')
    await userEvent.click(screen.getByRole('heading', { level: 1 }))
    await waitFor(() => expect(server.writes()).toEqual([{ method: 'POST', path: `${BASE}/nodes/1`, body: { version: 7, name: 'Origines', text: '' } }]))
    expect(await within(map).findByText('Origines')).toBeInTheDocument()
  })

  it('keeps what was typed when someone changed the tree meanwhile; Enter again saves with the new version', async () => {
    const server = new FakeTree([node(0, null, 'Réglage du tour'), node(1, 0, 'Causes')])
    open('/spotv2/subject/5/mindmap?node=1')
    ;(await canvas()).focus()
    await userEvent.keyboard('{F2}')
    const field = await nameField('Causes')
    await userEvent.keyboard('Causes possibles')
    server.tree = { ...server.tree, version: 12, nodes: [...server.tree.nodes, node(2, 0, 'Effets', 'inProgress', 1)] }
    server.nextAnswers.push(errorBody(409, 'Conflict', 'staleVersion'))
    const readsBefore = server.reads()
    await userEvent.keyboard('{Enter}')
    expect(await screen.findByText(/Someone changed the mind map meanwhile\. It has been read again/)).toBeInTheDocument()
    await waitFor(() => expect(server.reads()).toBeGreaterThan(readsBefore))
    expect(await within(await canvas()).findByText('Effets')).toBeInTheDocument()
    expect(field).toHaveValue('Causes possibles')
    expect(field).toHaveFocus()
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    await userEvent.keyboard('{Enter}')
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Name of Causes' })).not.toBeInTheDocument())
    expect(server.writes().map((write) => write.body)).toEqual([
      { version: 7, name: 'Causes possibles', text: '' },
      { version: 12, name: 'Causes possibles', text: '' },
    ])
    expect(screen.queryByText(/Someone changed the mind map meanwhile/)).not.toBeInTheDocument()
  })

  it('renames with F2 in the outline, the letters typed staying in the field', async () => {
    phoneWidth(true)
    const server = new FakeTree([node(0, null, 'Réglage du tour'), node(1, 0, 'Causes'), node(2, 0, 'Effets', 'inProgress', 1)])
    open()
    const outline = await screen.findByRole('tree', { name: 'Outline of the mind map of Réglage du tour' })
    await userEvent.click(within(outline).getByText('Causes'))
    const causes = within(outline).getByRole('treeitem', { name: /^Causes/ })
    expect(causes).toHaveFocus()
    await userEvent.keyboard('{F2}')
    const field = await within(causes).findByRole('textbox', { name: 'Name of Causes' })
    expect(field).toHaveFocus()
    // "E" would move the tree's focus to Effets; the arrows would move it too.
    await userEvent.keyboard('Effets et causes{ArrowDown}{Home}{Enter}')
    await waitFor(() => expect(within(outline).queryByRole('textbox')).not.toBeInTheDocument())
    expect(server.writes()).toEqual([{ method: 'POST', path: `${BASE}/nodes/1`, body: { version: 7, name: 'Effets et causes', text: '' } }])
    expect(await within(outline).findByRole('treeitem', { name: /^Effets et causes/ })).toHaveFocus()
    expect(within(selectedPanel()).getByRole('heading', { name: 'Effets et causes' })).toBeInTheDocument()
    // Escape cancels there too.
    await userEvent.keyboard('{F2}')
    await userEvent.keyboard('Autre{Escape}')
    expect(within(outline).queryByRole('textbox')).not.toBeInTheDocument()
    expect(server.writes()).toHaveLength(1)
  })

  it('is not offered to who may only read', async () => {
    new FakeTree([node(0, null, 'Réglage du tour'), node(1, 0, 'Causes')], { edit: false })
    open('/spotv2/subject/5/mindmap?node=1')
    const map = await canvas()
    map.focus()
    await userEvent.keyboard('{F2}')
    fireEvent.doubleClick(within(map).getByText('Causes'))
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument()
  })

  it.each([false, true])('has no serious or critical axe violation with a refused name in the field (phone: %s)', async (phone) => {
    phoneWidth(phone)
    new FakeTree([node(0, null, 'Réglage du tour'), node(1, 0, 'Causes'), node(2, 1, 'Usure')])
    const { container } = open('/spotv2/subject/5/mindmap?node=1')
    const view = await screen.findByRole(phone ? 'tree' : 'application')
    if (phone) await userEvent.click(within(view).getByText('Causes'))
    else view.focus()
    await userEvent.keyboard('{F2}')
    await userEvent.clear(await nameField('Causes'))
    await userEvent.keyboard('{Enter}')
    await screen.findByText("This field can't stay empty")
    const { violations } = await axe.run(container)
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([])
  })
})

describe('what the server says of each node', () => {
  const locked = { edit: false, rename: false, delete: false }

  it('offers neither editing, renaming nor deleting a validated node to who may not validate', async () => {
    const server = new FakeTree([node(0, null, 'Réglage du tour'), node(1, 0, 'Consigner', 'validated', 0, locked)])
    open('/spotv2/subject/5/mindmap?node=1')
    const map = await canvas()
    expect(within(selectedPanel()).getByRole('heading', { name: 'Consigner' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
    // What the server still accepts on a validated node: moving it, adding under it.
    expect(screen.getByRole('button', { name: 'Move' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Add a child' })).toBeEnabled()
    map.focus()
    await userEvent.keyboard('{Enter}')
    await userEvent.keyboard('{F2}')
    await userEvent.keyboard('{Delete}')
    fireEvent.doubleClick(within(map).getByText('Consigner'))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument()
    expect(server.writes()).toEqual([])
  })

  it('offers them on a validated node to who may validate', async () => {
    new FakeTree([node(0, null, 'Réglage du tour'), node(1, 0, 'Consigner', 'validated')], { validate: true })
    open('/spotv2/subject/5/mindmap?node=1')
    const map = await canvas()
    expect(screen.getByRole('button', { name: 'Edit' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled()
    map.focus()
    await userEvent.keyboard('{F2}')
    expect(await screen.findByRole('textbox', { name: 'Name of Consigner' })).toHaveFocus()
  })

  it("keeps the main node's name, the subject's, when the server says it may not be renamed", async () => {
    const server = new FakeTree([node(0, null, 'Réglage du tour', 'inProgress', 0, { rename: false })])
    open()
    ;(await canvas()).focus()
    await userEvent.keyboard('{Enter}')
    const name = await screen.findByRole('textbox', { name: 'Name' })
    expect(name).toHaveAttribute('readonly')
    expect(screen.getByText("The main node bears the subject's name: renaming it takes the right to edit subjects.")).toBeInTheDocument()
    const text = screen.getByRole('textbox', { name: 'Text' })
    expect(text).toHaveFocus()
    await userEvent.type(text, 'Sur le tour 3')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(server.writes().map((write) => write.body)).toEqual([{ version: 7, name: 'Réglage du tour', text: 'Sur le tour 3' }])
  })
})

describe('a node just added', () => {
  /** The canvas's pan and zoom, from its viewport's transform. */
  const viewport = (map: HTMLElement) => {
    const transform = map.querySelector<HTMLElement>('.react-flow__viewport')?.style.transform ?? ''
    const [x, y, zoom] = (/translate\((-?[\d.]+)px, ?(-?[\d.]+)px\) scale\(([\d.]+)\)/.exec(transform) ?? []).slice(1).map(Number)
    return { x, y, zoom }
  }
  /** A drawn node's centre on the canvas's plane. */
  const centre = (map: HTMLElement, code: number) => {
    const transform = map.querySelector<HTMLElement>(`.react-flow__node[data-id="${code}"]`)?.style.transform ?? ''
    const [x, y] = (/translate\((-?[\d.]+)px, ?(-?[\d.]+)px\)/.exec(transform) ?? []).slice(1).map(Number)
    return { x: x + 100, y: y + 32 }
  }

  it('is brought to the middle of the canvas, which gets the focus back', async () => {
    // Enough nodes on the right that the new one is drawn below the part in view.
    new FakeTree([node(0, null, 'Réglage du tour'), ...[1, 2, 3, 4, 5, 6].map((code) => node(code, 0, `Branche ${code}`, 'inProgress', code - 1))])
    open('/spotv2/subject/5/mindmap?node=3')
    const map = await canvas()
    await userEvent.click(screen.getByRole('button', { name: 'Add a child' }))
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Nouvelle cause{Enter}')
    await waitFor(() => expect(within(selectedPanel()).getByRole('heading', { name: 'Nouvelle cause' })).toBeInTheDocument())
    await waitFor(() => expect(map).toHaveFocus())
    const view = viewport(map)
    const added = centre(map, 7)
    // The canvas is 800 × 500 (beforeEach): the new node's centre is at its middle.
    expect(view.x + added.x * view.zoom).toBeCloseTo(400, 0)
    expect(view.y + added.y * view.zoom).toBeCloseTo(250, 0)
    expect(screen.getByText('Selected: Nouvelle cause, In progress')).toBeInTheDocument()
  })
})

describe('the outline', () => {
  it('is the view on a phone and lists the tree with statuses; selecting there selects the node', async () => {
    phoneWidth(true)
    new FakeTree([
      node(0, null, 'Réglage du tour', 'toValidate'),
      node(1, 0, 'Causes', 'inProgress', 0),
      node(2, 1, 'Usure', 'validated', 0),
      node(3, 0, 'Effets', 'empty', 1),
    ])
    open()
    const outline = await screen.findByRole('tree', { name: 'Outline of the mind map of Réglage du tour' })
    expect(screen.queryByRole('application')).not.toBeInTheDocument()
    expect(within(outline).getAllByRole('treeitem')).toHaveLength(4)
    const causes = within(outline).getByRole('treeitem', { name: /^Causes/ })
    const usure = within(causes).getByRole('treeitem', { name: /Usure/ })
    expect(within(causes).queryByRole('treeitem', { name: /Effets/ })).not.toBeInTheDocument()
    expect(usure).toHaveTextContent('UsureValidated')
    expect(within(outline).getByRole('treeitem', { name: /^Effets/ })).toHaveTextContent('EffetsEmpty')
    await userEvent.click(within(usure).getByText('Usure'))
    expect(within(selectedPanel()).getByRole('heading', { name: 'Usure' })).toBeInTheDocument()
    // The canvas is one click away.
    await userEvent.click(screen.getByRole('button', { name: 'Map' }))
    expect(await canvas()).toBeInTheDocument()
  })
})

describe('accessibility', () => {
  it.each([false, true])('has no serious or critical axe violation (phone: %s)', async (phone) => {
    phoneWidth(phone)
    new FakeTree([node(0, null, 'Réglage du tour', 'toValidate'), node(1, 0, 'Causes', 'validated'), node(2, 1, 'Usure'), node(3, 0, 'Effets', 'empty', 1)])
    const { container } = open('/spotv2/subject/5/mindmap?node=1')
    await screen.findByRole(phone ? 'tree' : 'application')
    const { violations } = await axe.run(container)
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([])
  })
})
