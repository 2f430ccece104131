import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { renderWithClient } from '../../../test/render'
import { Outline } from './Outline'
import type { MindMapNode, NodeStatus } from './types'

const node = (code: number, parentCode: number | null, name: string, status: NodeStatus = 'inProgress', position = 0): MindMapNode => ({
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
  can: { edit: true, rename: true, delete: parentCode !== null },
})

const NODES = [node(0, null, 'Réglage du tour', 'toValidate'), node(1, 0, 'Causes', 'inProgress', 0), node(2, 1, 'Usure', 'validated', 0), node(3, 0, 'Effets', 'empty', 1)]

function Selecting({ initial }: { initial?: number }) {
  const [selected, setSelected] = useState(initial)
  return <Outline label="Outline" nodes={NODES} selectedCode={selected} onSelect={setSelected} marks={{ 3: ['added', 'statusChanged'] }} />
}

const item = (name: RegExp) => within(screen.getByRole('tree', { name: 'Outline' })).getByRole('treeitem', { name })

describe('Outline', () => {
  it('selects a node on a click without folding its branch; only the arrow folds it', async () => {
    renderWithClient(<Selecting />)
    await userEvent.click(within(item(/^Réglage du tour/)).getByText('Réglage du tour'))
    expect(item(/^Réglage du tour/)).toHaveAttribute('aria-expanded', 'true')
    expect(item(/^Réglage du tour/)).toHaveAttribute('aria-selected', 'true')
    await userEvent.click(within(item(/^Causes/)).getByText('Causes'))
    expect(item(/^Causes/)).toHaveAttribute('aria-expanded', 'true')
    expect(item(/^Usure/)).toBeVisible()
    expect(item(/^Causes/)).toHaveAttribute('aria-selected', 'true')

    // The arrow in the row of Causes folds the branch.
    const content = within(item(/^Causes/)).getByText('Causes').closest('.MuiTreeItem-content')
    const icon = content?.querySelector('.MuiTreeItem-iconContainer')
    if (!icon) throw new Error('no expand icon')
    await userEvent.click(icon)
    expect(item(/^Causes/)).toHaveAttribute('aria-expanded', 'false')
  })

  it('tells the selection with aria-selected, never aria-checked', async () => {
    renderWithClient(<Selecting initial={2} />)
    const items = screen.getAllByRole('treeitem')
    expect(items).toHaveLength(4)
    for (const treeItem of items) {
      expect(treeItem).toHaveAttribute('aria-selected')
      expect(treeItem).not.toHaveAttribute('aria-checked')
    }
    expect(item(/^Usure/)).toHaveAttribute('aria-selected', 'true')
    expect(item(/^Réglage du tour/)).toHaveAttribute('aria-selected', 'false')
    await userEvent.click(within(item(/^Effets/)).getByText('Effets'))
    expect(item(/^Effets/)).toHaveAttribute('aria-selected', 'true')
    expect(item(/^Usure/)).toHaveAttribute('aria-selected', 'false')
    // The marks use the mind map's words.
    expect(item(/^Effets/)).toHaveTextContent('EffetsEmptyAdded, Status changed')
  })

  it('has no selection state when nothing can be selected', () => {
    renderWithClient(<Outline label="Outline" nodes={NODES} />)
    for (const treeItem of screen.getAllByRole('treeitem')) {
      expect(treeItem).not.toHaveAttribute('aria-selected')
      expect(treeItem).not.toHaveAttribute('aria-checked')
    }
  })
})
