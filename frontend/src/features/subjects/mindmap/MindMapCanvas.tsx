import '@xyflow/react/dist/style.css'
import Box from '@mui/material/Box'
import { useTheme } from '@mui/material/styles'
import Typography from '@mui/material/Typography'
import { visuallyHidden } from '@mui/utils'
import {
  applyNodeChanges,
  Background,
  Controls,
  type Edge,
  Handle,
  type Node,
  type NodeChange,
  type NodeProps,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from '@xyflow/react'
import { type KeyboardEvent, useContext, useEffect, useId, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { differenceLabelKey } from './DifferenceChips'
import { InlineNameEditor, type Renaming, RenamingContext } from './InlineNameEditor'
import { type Direction, dropTarget, layoutMindMap, neighbour, NODE_HEIGHT, NODE_WIDTH, type Placement, reachable } from './layout'
import { statusColours, statusLabelKey } from './status'
import type { DifferenceKind, MindMapNode, StandardizedNode } from './types'

export interface MindMapCanvasProps {
  nodes: readonly (MindMapNode | StandardizedNode)[]
  readOnly?: boolean
  /** Differences to show on nodes, by code: a badge and an outline, with their names written. */
  marks?: Record<number, DifferenceKind[]>
  selectedCode?: number
  onSelect?: (code: number) => void
  /** A node dropped on another goes under it, last among its children (not when read-only). */
  onMove?: (code: number, parentCode: number) => void
  /** A double-click on a node asks to rename it in place (not when read-only). */
  onRename?: (code: number) => void
  /** The node being renamed in place: its name is a text field on the node. */
  renaming?: Renaming
  /** Each new value fits the whole map in view: the page's own 'fit to screen', which then replaces the canvas's. */
  fitRequest?: number
  /** A node to bring into sight (centred, the canvas focused, the node selected by the page), then onRevealed. */
  reveal?: number
  onRevealed?: () => void
  /** The canvas's accessible name. */
  label: string
}

interface NodeData extends Record<string, unknown> {
  name: string
  status: MindMapNode['status']
  marks: DifferenceKind[]
  main: boolean
  selected: boolean
  side: Placement['side']
  code: number
}

type MapNode = Node<NodeData, 'mindMap'>

const KEY_DIRECTIONS: Record<string, Direction> = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' }
const HIDDEN_HANDLE = { opacity: 0, pointerEvents: 'none' } as const

/** One node: its name, its status written under it, its marks as badges; coloured by status. */
function MindMapNodeView({ data }: NodeProps<MapNode>) {
  const { t } = useTranslation()
  const theme = useTheme()
  const renaming = useContext(RenamingContext)
  const inPlace = renaming?.code === data.code ? renaming : undefined
  const colours = statusColours(theme, data.status)
  const marked = data.marks.length > 0
  return (
    <Box
      sx={{
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
        boxSizing: 'border-box',
        px: 1.25,
        py: 0.5,
        border: 2,
        borderColor: colours.border,
        borderStyle: marked ? 'dashed' : 'solid',
        borderRadius: data.main ? 3 : 1.5,
        bgcolor: 'background.paper',
        backgroundImage: `linear-gradient(${colours.background}, ${colours.background})`,
        color: colours.text,
        outline: data.selected ? `3px solid ${theme.palette.primary.text}` : marked ? `2px solid ${theme.palette.accent.main}` : 'none',
        outlineOffset: 2,
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'center',
        // The field's message shows under the node while it is renamed.
        overflow: inPlace ? 'visible' : 'hidden',
      }}
    >
      <Handle type="target" position={Position.Left} id="in-left" isConnectable={false} style={HIDDEN_HANDLE} />
      <Handle type="target" position={Position.Right} id="in-right" isConnectable={false} style={HIDDEN_HANDLE} />
      {inPlace ? (
        <InlineNameEditor renaming={inPlace} name={data.name} onCanvas />
      ) : (
      <Typography
        variant="body2"
        sx={{ fontWeight: data.main ? 700 : 600, lineHeight: 1.25, overflow: 'hidden', display: '-webkit-box', WebkitLineClamp: marked ? 1 : 2, WebkitBoxOrient: 'vertical', overflowWrap: 'anywhere' }}
        title={data.name}
      >
        {data.name}
      </Typography>
      )}
      <Typography variant="caption" sx={{ lineHeight: 1.3, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
        {t(statusLabelKey(data.status))}
        {marked && ` · ${data.marks.map((kind) => t(differenceLabelKey(kind))).join(', ')}`}
      </Typography>
      <Handle type="source" position={Position.Right} id="out-right" isConnectable={false} style={HIDDEN_HANDLE} />
      <Handle type="source" position={Position.Left} id="out-left" isConnectable={false} style={HIDDEN_HANDLE} />
    </Box>
  )
}

const NODE_TYPES = { mindMap: MindMapNodeView }

/**
 * The mind map drawn as a two-sided tree (see layout.ts) on @xyflow/react: pan and zoom, nodes coloured
 * by status with the status written, edges from parent to child. The arrows move the selection as the
 * map is drawn; when editable, a node dropped on another moves under it (nowhere, or on its own subtree,
 * it goes back).
 */
const INITIAL_MIN_ZOOM = 0.6

export function MindMapCanvas(props: MindMapCanvasProps) {
  return (
    <ReactFlowProvider>
      <Flow {...props} />
    </ReactFlowProvider>
  )
}

function Flow({ nodes, readOnly = false, marks, selectedCode, onSelect, onMove, onRename, renaming, fitRequest, reveal, onRevealed, label }: MindMapCanvasProps) {
  const { t } = useTranslation()
  const flow = useReactFlow<MapNode>()
  const flowRef = useRef<HTMLDivElement>(null)
  const hintId = useId()
  const drawn = useMemo(() => reachable(nodes), [nodes])
  const placements = useMemo(() => layoutMindMap(drawn), [drawn])
  const layoutNodes = useMemo<MapNode[]>(
    () =>
      drawn.flatMap((node) => {
        const placement = placements.get(node.code)
        if (!placement) return []
        return [
          {
            id: String(node.code),
            type: 'mindMap',
            position: { x: placement.x - NODE_WIDTH / 2, y: placement.y - NODE_HEIGHT / 2 },
            width: NODE_WIDTH,
            height: NODE_HEIGHT,
            draggable: !readOnly && node.parentCode !== null && node.code !== renaming?.code,
            // The node renamed comes above the others, with its field's message.
            zIndex: node.code === renaming?.code ? 1000 : undefined,
            data: {
              name: node.name,
              status: node.status,
              marks: marks?.[node.code] ?? [],
              main: node.parentCode === null,
              selected: node.code === selectedCode,
              side: placement.side,
              code: node.code,
            },
          },
        ]
      }),
    [drawn, placements, marks, selectedCode, readOnly, renaming?.code],
  )
  const edges = useMemo<Edge[]>(
    () =>
      drawn.flatMap((node) => {
        const side = placements.get(node.code)?.side
        if (node.parentCode === null || !side) return []
        const outward = side === 'left' ? 'left' : 'right'
        const inward = side === 'left' ? 'right' : 'left'
        return [
          { id: `${node.parentCode}-${node.code}`, source: String(node.parentCode), target: String(node.code), sourceHandle: `out-${outward}`, targetHandle: `in-${inward}` },
        ]
      }),
    [drawn, placements],
  )

  // The nodes as drawn: the layout's, moved while one is dragged, back to the layout's after a drop.
  const [flowNodes, setFlowNodes] = useState(layoutNodes)
  const [laidOut, setLaidOut] = useState(layoutNodes)
  if (laidOut !== layoutNodes) {
    setLaidOut(layoutNodes)
    setFlowNodes(layoutNodes)
  }

  useEffect(() => {
    if (fitRequest) void flow.fitView({ padding: 0.15, duration: 200 })
  }, [fitRequest, flow])

  // A new node may be drawn far from the part in view: the view moves to it, at the same zoom, and the
  // focus comes back to the canvas (from the dialog that added it), whose arrows go on from there.
  useEffect(() => {
    const placement = reveal === undefined ? undefined : placements.get(reveal)
    if (!placement) return
    void flow.setCenter(placement.x, placement.y, { zoom: flow.getZoom() })
    flowRef.current?.focus()
    onRevealed?.()
  }, [reveal, placements, flow, onRevealed])

  const selected = drawn.find((node) => node.code === selectedCode)
  const onKeyDown = (event: KeyboardEvent) => {
    const direction = KEY_DIRECTIONS[event.key]
    if (!direction || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || !onSelect) return
    event.preventDefault()
    const next = selected === undefined ? drawn[0]?.code : neighbourOf(selected.code, direction)
    if (next === undefined) return
    onSelect(next)
    const placement = placements.get(next)
    if (placement) void flow.setCenter(placement.x, placement.y, { zoom: flow.getZoom() })
  }
  const neighbourOf = (code: number, direction: Direction) => neighbour(drawn, placements, code, direction)

  return (
    <RenamingContext value={renaming}>
    <Box sx={{ height: '100%', minHeight: 360, '& .react-flow:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 } }}>
      <Box id={hintId} sx={visuallyHidden}>
        {t(readOnly ? 'subjects.mindMap.canvasHintReadOnly' : 'subjects.mindMap.canvasHint')}
      </Box>
      <Box aria-live="polite" sx={visuallyHidden}>
        {selected && t('subjects.mindMap.selectedNode', { name: selected.name, status: t(statusLabelKey(selected.status)) })}
      </Box>
      {/* The library's wrapper is the application the keys go to. */}
      <ReactFlow<MapNode>
        ref={flowRef}
        aria-label={label}
        aria-describedby={hintId}
        tabIndex={0}
        onKeyDown={onKeyDown}
        nodes={flowNodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={(changes: NodeChange<MapNode>[]) => setFlowNodes((current) => applyNodeChanges(changes, current))}
        onNodeClick={(_event, node) => onSelect?.(Number(node.id))}
        onNodeDoubleClick={(_event, node) => !readOnly && onRename?.(Number(node.id))}
        onNodeDragStop={(_event, node) => {
          setFlowNodes(layoutNodes)
          const code = Number(node.id)
          const centre = { x: node.position.x + NODE_WIDTH / 2, y: node.position.y + NODE_HEIGHT / 2 }
          const target = dropTarget(drawn, placements, code, centre)
          const parent = drawn.find((candidate) => candidate.code === code)?.parentCode
          if (target !== undefined && target !== parent) onMove?.(code, target)
        }}
        nodesDraggable={!readOnly}
        nodesConnectable={false}
        nodesFocusable={false}
        edgesFocusable={false}
        elementsSelectable={false}
        deleteKeyCode={null}
        selectionKeyCode={null}
        multiSelectionKeyCode={null}
        zoomOnDoubleClick={readOnly}
        minZoom={0.1}
        fitView
        // The first view stays readable (node texts at 60 % at least), centred on the tree; "fit to
        // screen" shows all of a big tree however small.
        fitViewOptions={{ padding: 0.15, minZoom: INITIAL_MIN_ZOOM }}
        ariaLabelConfig={{
          'controls.ariaLabel': t('subjects.mindMap.controls'),
          'controls.zoomIn.ariaLabel': t('subjects.mindMap.zoomIn'),
          'controls.zoomOut.ariaLabel': t('subjects.mindMap.zoomOut'),
          'controls.fitView.ariaLabel': t('subjects.mindMap.fit'),
          'controls.interactive.ariaLabel': t('subjects.mindMap.interactive'),
        }}
      >
        <Controls showInteractive={false} showFitView={fitRequest === undefined} />
        <Background />
      </ReactFlow>
    </Box>
    </RenamingContext>
  )
}
