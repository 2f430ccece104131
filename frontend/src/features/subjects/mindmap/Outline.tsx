import Box from '@mui/material/Box'
import { useTheme } from '@mui/material/styles'
import Typography from '@mui/material/Typography'
import { useSimpleTreeViewApiRef } from '@mui/x-tree-view/hooks'
import { SimpleTreeView } from '@mui/x-tree-view/SimpleTreeView'
import { TreeItem } from '@mui/x-tree-view/TreeItem'
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { differenceLabelKey } from './DifferenceChips'
import { InlineNameEditor, type Renaming } from './InlineNameEditor'
import { childrenByParent, reachable } from './layout'
import { statusColours, statusLabelKey } from './status'
import type { DifferenceKind, MindMapNode, StandardizedNode } from './types'

export interface OutlineProps {
  nodes: readonly (MindMapNode | StandardizedNode)[]
  marks?: Record<number, DifferenceKind[]>
  selectedCode?: number
  onSelect?: (code: number) => void
  /** The node being renamed in place: its name is a text field in its item. */
  renaming?: Renaming
  /** The tree's accessible name. */
  label: string
}

type OutlineNode = MindMapNode | StandardizedNode

/**
 * The mind map as an accessible tree (the same nodes as the canvas): each node's name, its status
 * and its marks written out, navigable with the tree keys (arrows, Home, End, type-ahead); moving the
 * focus selects the node, as in the canvas.
 */
export function Outline({ nodes, marks, selectedCode, onSelect, renaming, label }: OutlineProps) {
  const drawn = useMemo(() => reachable(nodes), [nodes])
  const children = useMemo(() => childrenByParent(drawn), [drawn])
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set())
  const apiRef = useSimpleTreeViewApiRef()
  const treeRef = useRef<HTMLUListElement>(null)
  // The focus follows a selection made otherwise (a click, a node just added), when it is in the tree.
  useEffect(() => {
    if (selectedCode !== undefined && treeRef.current?.contains(document.activeElement)) apiRef.current?.focusItem(null, String(selectedCode))
  }, [apiRef, selectedCode, drawn])
  // The branches holding the selected node stay open, whatever selected it.
  const selectedPath = useMemo(() => {
    const path = new Set<string>()
    let current = drawn.find((node) => node.code === selectedCode)
    while (current && current.parentCode !== null) {
      const parentCode: number = current.parentCode
      path.add(String(parentCode))
      current = drawn.find((node) => node.code === parentCode)
    }
    return path
  }, [drawn, selectedCode])
  const expanded = [...children.keys()].map(String).filter((id) => !collapsed.has(id) || selectedPath.has(id))
  const root = drawn[0]
  if (!root) return null

  const renderNode = (node: OutlineNode): ReactNode => (
    <TreeItem
      key={node.code}
      itemId={String(node.code)}
      label={<OutlineLabel node={node} marks={marks?.[node.code] ?? []} renaming={renaming?.code === node.code ? renaming : undefined} />}
      // A single-selection tree tells its selection with aria-selected (the tree view writes aria-checked,
      // "mixed" on the ancestors of the selected item, which screen readers announce as checkboxes).
      aria-checked={undefined}
      aria-selected={onSelect ? node.code === selectedCode : undefined}
    >
      {children.get(node.code)?.map(renderNode)}
    </TreeItem>
  )
  return (
    <SimpleTreeView
      ref={treeRef}
      apiRef={apiRef}
      aria-label={label}
      // A click selects a node; only its arrow opens or closes its branch.
      expansionTrigger="iconContainer"
      expandedItems={expanded}
      onExpandedItemsChange={(_event, items) => {
        const open = new Set(items)
        setCollapsed(new Set([...children.keys()].map(String).filter((id) => !open.has(id))))
      }}
      selectedItems={selectedCode === undefined ? null : String(selectedCode)}
      onSelectedItemsChange={(_event, itemId) => {
        if (itemId !== null) onSelect?.(Number(itemId))
      }}
      onItemFocus={(event, itemId) => {
        // The focus coming back from outside the tree (a dialog closing returns it to the item it was
        // opened from) keeps the selection: the selected item takes the focus instead.
        const from = event && 'relatedTarget' in event ? event.relatedTarget : null
        const fromOutside = !(from instanceof Node && treeRef.current?.contains(from))
        if (fromOutside && selectedCode !== undefined && itemId !== String(selectedCode)) apiRef.current?.focusItem(null, String(selectedCode))
        else onSelect?.(Number(itemId))
      }}
      disableSelection={!onSelect}
    >
      {renderNode(root)}
    </SimpleTreeView>
  )
}

function OutlineLabel({ node, marks, renaming }: { node: OutlineNode; marks: DifferenceKind[]; renaming?: Renaming }) {
  const { t } = useTranslation()
  const theme = useTheme()
  const colours = statusColours(theme, node.status)
  return (
    // The dot stays on the name's first line however long the name; the status and the marks follow.
    <Box component="span" sx={{ display: 'flex', alignItems: 'baseline', columnGap: 1, py: 0.5, minWidth: 0 }}>
      <Box
        component="span"
        aria-hidden
        sx={{ flex: 'none', width: 10, height: 10, borderRadius: '50%', bgcolor: colours.border, alignSelf: 'flex-start', mt: '0.45em' }}
      />
      <Box component="span" sx={{ display: 'flex', alignItems: 'baseline', flexWrap: 'wrap', columnGap: 1, minWidth: 0 }}>
        {renaming ? (
          <Box component="span" sx={{ flex: '1 1 200px', minWidth: 0 }}>
            <InlineNameEditor renaming={renaming} name={node.name} />
          </Box>
        ) : (
          <Box component="span" sx={{ overflowWrap: 'anywhere', minWidth: 0, fontWeight: node.parentCode === null ? 700 : 400 }}>
            {node.name}
          </Box>
        )}
        <Typography component="span" variant="caption" color="text.secondary">
          {t(statusLabelKey(node.status))}
        </Typography>
        {marks.length > 0 && (
          <Typography component="span" variant="caption" sx={{ color: 'accent.text', fontWeight: 600 }}>
            {marks.map((kind) => t(differenceLabelKey(kind))).join(', ')}
          </Typography>
        )}
      </Box>
    </Box>
  )
}
