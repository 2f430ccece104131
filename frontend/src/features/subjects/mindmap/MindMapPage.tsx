import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined'
import AddCircleOutline from '@mui/icons-material/AddCircleOutlineOutlined'
import ArrowBack from '@mui/icons-material/ArrowBack'
import ArrowDropDown from '@mui/icons-material/ArrowDropDown'
import BubbleChartOutlined from '@mui/icons-material/BubbleChartOutlined'
import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import DriveFileMoveOutlined from '@mui/icons-material/DriveFileMoveOutlined'
import EditOutlined from '@mui/icons-material/EditOutlined'
import FitScreen from '@mui/icons-material/FitScreen'
import KeyboardOutlined from '@mui/icons-material/KeyboardOutlined'
import PlaylistAdd from '@mui/icons-material/PlaylistAdd'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import IconButton from '@mui/material/IconButton'
import Link from '@mui/material/Link'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import { useTheme } from '@mui/material/styles'
import TextField from '@mui/material/TextField'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import useMediaQuery from '@mui/material/useMediaQuery'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type KeyboardEvent, lazy, Suspense, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useParams, useSearchParams } from 'react-router'
import { subjectPath } from '../../../lib/paths'
import { ConfirmDialog } from '../../../components/ConfirmDialog'
import { LoadFailure } from '../../../components/LoadFailure'
import { Loading } from '../../../components/Loading'
import { NotFoundPage } from '../../../components/NotFoundPage'
import { Notice } from '../../../components/Notice'
import { StaleVersionNotice } from '../../../components/StaleVersionNotice'
import { usePageTitle } from '../../../lib/pageTitle'
import { idParam } from '../../../lib/routeParams'
import { useLifetimeText } from '../lifetime'
import { NodeStatusChip } from '../NodeStatusChip'
import { isStaleVersion, mindMapQuery, type NodeContent, useAddNode, useDeleteNode, useEditNode, useMoveNode, useSetNodeStatus } from './api'
import type { Renaming } from './InlineNameEditor'
import { childrenByParent, subtreeCodes } from './layout'
import { NodeDialog } from './NodeDialog'
import { Outline } from './Outline'
import { statusChoices, statusLabelKey } from './status'
import type { MindMap, MindMapNode, NodeStatus } from './types'

// The canvas brings the graph library: it loads with the first drawing, not with the page.
const MindMapCanvas = lazy(async () => ({ default: (await import('./MindMapCanvas')).MindMapCanvas }))

type View = 'canvas' | 'outline'
type Editing = { kind: 'child' | 'sibling'; parentCode: number; position?: number } | { kind: 'edit'; code: number }

export function MindMapPage() {
  const subjectId = idParam(useParams().subjectId)
  return subjectId === undefined ? <NotFoundPage /> : <LoadedMindMap key={subjectId} subjectId={subjectId} />
}

function LoadedMindMap({ subjectId }: { subjectId: number }) {
  const { t } = useTranslation()
  const { data: tree, error } = useQuery(mindMapQuery(subjectId))
  usePageTitle(error ? undefined : t('subjects.mindMap.pageTitle'))
  if (error) return <LoadFailure error={error} />
  if (!tree) return <Loading />
  return <MindMapEditor tree={tree} />
}

/** The shortcuts of the map, for the help dialog: the keys and what they do. */
const SHORTCUTS = [
  ['arrows', 'shortcutArrows'],
  ['enter', 'shortcutEdit'],
  ['f2', 'shortcutRename'],
  ['tab', 'shortcutChild'],
  ['shiftEnter', 'shortcutSibling'],
  ['delete', 'shortcutDelete'],
] as const

function MindMapEditor({ tree }: { tree: MindMap }) {
  const { t } = useTranslation()
  const theme = useTheme()
  const queryClient = useQueryClient()
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true })
  const [searchParams] = useSearchParams()
  const subjectId = tree.subjectId
  const canEdit = tree.can.edit

  const [view, setView] = useState<View>(phone ? 'outline' : 'canvas')
  const [selectedCode, setSelectedCode] = useState(() => Number(searchParams.get('node') ?? 0))
  const [editing, setEditing] = useState<Editing>()
  // The node renamed in place, and whether its last save met a stale version.
  const [renamingCode, setRenamingCode] = useState<number>()
  const [renameStale, setRenameStale] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const [moving, setMoving] = useState(false)
  const [statusAnchor, setStatusAnchor] = useState<HTMLElement | null>(null)
  const [fitRequest, setFitRequest] = useState(0)
  const [helpOpen, setHelpOpen] = useState(false)
  const [stale, setStale] = useState(false)
  const [notice, setNotice] = useState<string>()
  // A node just added, which the view brings into sight and gives the focus to.
  const [revealCode, setRevealCode] = useState<number>()
  const viewRef = useRef<HTMLDivElement>(null)

  const addNode = useAddNode(subjectId)
  const editNode = useEditNode(subjectId)
  const moveNode = useMoveNode(subjectId)
  const deleteNode = useDeleteNode(subjectId)
  const setStatus = useSetNodeStatus(subjectId)

  const nodes = tree.nodes
  const byCode = useMemo(() => new Map(nodes.map((node) => [node.code, node])), [nodes])
  // A node removed meanwhile (by someone else) leaves the selection on the main node.
  const selected = byCode.get(selectedCode) ?? nodes[0]
  const isMain = selected?.parentCode === null
  // What the server says may be done with the selected node (a validated one needs the right to validate).
  const nodeCan = canEdit ? selected?.can : undefined
  const choices = selected ? statusChoices(selected.status, tree.can.validate) : []
  const readAgain = () => {
    setStale(false)
    setRenameStale(false)
    void queryClient.invalidateQueries({ queryKey: mindMapQuery(subjectId).queryKey })
  }
  /** A change refused because the tree changed meanwhile: the tree is read again (api.ts) and the page says so. */
  const onChangeError = (error: unknown) => {
    if (isStaleVersion(error)) setStale(true)
  }

  const addChild = () => selected && setEditing({ kind: 'child', parentCode: selected.code })
  const addSibling = () =>
    selected && selected.parentCode !== null && setEditing({ kind: 'sibling', parentCode: selected.parentCode, position: selected.position + 1 })
  const edit = () => selected && setEditing({ kind: 'edit', code: selected.code })
  const startRename = (code: number) => {
    if (!byCode.get(code)?.can.rename) return
    setSelectedCode(code)
    setRenameStale(false)
    setRenamingCode(code)
  }
  const endRename = () => {
    setRenameStale(false)
    setRenamingCode(undefined)
  }
  const renamedNode = renamingCode === undefined ? undefined : byCode.get(renamingCode)
  // The name sent with the node's text as the tree now has it (read again after a stale version).
  const renaming: Renaming | undefined =
    canEdit && renamedNode?.can.rename
      ? {
          code: renamedNode.code,
          stale: renameStale,
          onCancel: endRename,
          onSave: async (name) => {
            try {
              await editNode.mutateAsync({ code: renamedNode.code, name, text: renamedNode.text })
            } catch (error) {
              if (isStaleVersion(error)) setRenameStale(true)
              throw error
            }
            setStale(false)
            endRename()
          },
        }
      : undefined
  const askDelete = () => nodeCan?.delete && setDeleting(true)

  const save = async (content: NodeContent) => {
    if (!editing) return
    const change =
      editing.kind === 'edit'
        ? await editNode.mutateAsync({ code: editing.code, ...content })
        : await addNode.mutateAsync({ parentCode: editing.parentCode, position: editing.position, ...content })
    setStale(false)
    setSelectedCode(change.code)
    if (editing.kind !== 'edit') setRevealCode(change.code)
    setEditing(undefined)
  }
  const move = (code: number, parentCode: number) => {
    const position = (childrenByParent(nodes).get(parentCode) ?? []).filter((child) => child.code !== code).length
    moveNode.mutate(
      { code, parentCode, position },
      {
        onSuccess: () => {
          setMoving(false)
          setNotice(t('subjects.mindMap.moved', { name: byCode.get(code)?.name, parent: byCode.get(parentCode)?.name }))
        },
        onError: onChangeError,
      },
    )
  }
  const changeStatus = (status: NodeStatus) => {
    setStatusAnchor(null)
    if (selected) setStatus.mutate({ code: selected.code, status }, { onError: onChangeError })
  }
  const confirmDelete = () =>
    selected &&
    deleteNode.mutate(selected.code, {
      onSuccess: () => setSelectedCode(selected.parentCode ?? 0),
      onError: onChangeError,
      onSettled: () => setDeleting(false),
    })

  // The editing shortcuts, inside the map's view only (not in the dialogs it opens); taken before the
  // outline's own keys, so that Enter edits rather than opens a branch.
  const onKeyDownCapture = (event: KeyboardEvent) => {
    if (!canEdit || !selected || renaming || !(event.target instanceof Node) || !viewRef.current?.contains(event.target)) return
    if (event.altKey || event.ctrlKey || event.metaKey) return
    const actions: [boolean, () => void][] = [
      [event.key === 'Tab' && !event.shiftKey, addChild],
      [event.key === 'Enter' && event.shiftKey, addSibling],
      [event.key === 'Enter' && !event.shiftKey && selected.can.edit, edit],
      [event.key === 'F2' && !event.shiftKey && selected.can.rename, () => startRename(selected.code)],
      [event.key === 'Delete' && selected.can.delete, askDelete],
    ]
    const action = actions.find(([matches]) => matches)?.[1]
    if (!action) return
    event.preventDefault()
    event.stopPropagation()
    action()
  }

  const descendants = selected ? subtreeCodes(nodes, selected.code).size - 1 : 0
  const editedNode = editing?.kind === 'edit' ? byCode.get(editing.code) : undefined
  const toolbarLabel = t('subjects.mindMap.toolbar')

  return (
    <>
      <Link component={RouterLink} to={subjectPath(subjectId)} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 1 }}>
        <ArrowBack fontSize="small" />
        {tree.subjectName}
      </Link>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2, gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {t('subjects.mindMap.title', { name: tree.subjectName })}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <ToggleButtonGroup size="small" exclusive value={view} onChange={(_event, chosen: View | null) => chosen && setView(chosen)} aria-label={t('subjects.mindMap.view')}>
            <ToggleButton value="canvas">
              <BubbleChartOutlined fontSize="small" sx={{ mr: 0.5 }} />
              {t('subjects.mindMap.canvasView')}
            </ToggleButton>
            <ToggleButton value="outline">
              <AccountTreeOutlined fontSize="small" sx={{ mr: 0.5 }} />
              {t('subjects.mindMap.outlineView')}
            </ToggleButton>
          </ToggleButtonGroup>
          <Tooltip title={t('subjects.mindMap.shortcuts')}>
            <IconButton aria-label={t('subjects.mindMap.shortcuts')} onClick={() => setHelpOpen(true)}>
              <KeyboardOutlined />
            </IconButton>
          </Tooltip>
        </Stack>
      </Stack>

      <Stack direction="row" role="toolbar" aria-label={toolbarLabel} useFlexGap sx={{ flexWrap: 'wrap', gap: 1, mb: 1.5 }}>
        {canEdit && selected && (
          <>
            <Button size="small" variant="outlined" startIcon={<AddCircleOutline />} onClick={addChild}>
              {t('subjects.mindMap.addChild')}
            </Button>
            <Button size="small" variant="outlined" startIcon={<PlaylistAdd />} onClick={addSibling} disabled={isMain}>
              {t('subjects.mindMap.addSibling')}
            </Button>
            {nodeCan?.edit && (
              <Button size="small" variant="outlined" startIcon={<EditOutlined />} onClick={edit}>
                {t('actions.edit')}
              </Button>
            )}
            <Button size="small" variant="outlined" startIcon={<DriveFileMoveOutlined />} onClick={() => setMoving(true)} disabled={isMain}>
              {t('subjects.mindMap.move')}
            </Button>
            <Button
              size="small"
              variant="outlined"
              endIcon={<ArrowDropDown />}
              onClick={(event) => setStatusAnchor(event.currentTarget)}
              disabled={choices.length === 0}
              aria-haspopup="menu"
            >
              {t('subjects.mindMap.changeStatus')}
            </Button>
            {/* Nobody deletes the main node (a rule of the tree: shown disabled); a node the user may not
                delete (a right they lack) offers no button. */}
            {(isMain || nodeCan?.delete) && (
              <Button size="small" variant="outlined" color="error" startIcon={<DeleteOutline />} onClick={askDelete} disabled={isMain}>
                {t('actions.delete')}
              </Button>
            )}
          </>
        )}
        {view === 'canvas' && (
          <Button size="small" startIcon={<FitScreen />} onClick={() => setFitRequest((count) => count + 1)}>
            {t('subjects.mindMap.fit')}
          </Button>
        )}
      </Stack>
      {renaming?.stale && (
        <Box sx={{ mb: 1.5 }}>
          <StaleVersionNotice message={t('subjects.mindMap.staleVersion')} readAgainLabel={t('subjects.mindMap.readAgain')} onReadAgain={readAgain} />
        </Box>
      )}
      {stale && !editing && !renaming?.stale && (
        <Box sx={{ mb: 1.5 }}>
          <StaleVersionNotice message={t('subjects.mindMap.staleChange')} readAgainLabel={t('subjects.mindMap.readAgain')} onReadAgain={readAgain} />
        </Box>
      )}

      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <Paper ref={viewRef} variant="outlined" onKeyDownCapture={onKeyDownCapture} sx={{ flexGrow: 1, minWidth: 0, overflow: 'hidden' }}>
          {view === 'canvas' ? (
            <Box sx={{ height: { xs: 420, md: 'calc(100vh - 300px)' }, minHeight: 420 }}>
              <Suspense fallback={<Loading />}>
                <MindMapCanvas
                  nodes={nodes}
                  readOnly={!canEdit}
                  selectedCode={selected?.code}
                  onSelect={setSelectedCode}
                  onMove={(code, parentCode) => move(code, parentCode)}
                  onRename={startRename}
                  renaming={renaming}
                  fitRequest={fitRequest}
                  reveal={revealCode}
                  onRevealed={() => setRevealCode(undefined)}
                  label={t('subjects.mindMap.canvasLabel', { name: tree.subjectName })}
                />
              </Suspense>
            </Box>
          ) : (
            <Box sx={{ p: 1 }}>
              <Outline
                nodes={nodes}
                selectedCode={selected?.code}
                onSelect={setSelectedCode}
                renaming={renaming}
                label={t('subjects.mindMap.outlineLabel', { name: tree.subjectName })}
              />
            </Box>
          )}
        </Paper>
        {selected && <NodeDetails node={selected} />}
      </Stack>

      <Menu anchorEl={statusAnchor} open={statusAnchor !== null} onClose={() => setStatusAnchor(null)}>
        {choices.map((status) => (
          <MenuItem key={status} onClick={() => changeStatus(status)}>
            {t(statusLabelKey(status))}
          </MenuItem>
        ))}
      </Menu>
      {editing && (
        <NodeDialog
          title={t(editing.kind === 'edit' ? 'subjects.mindMap.editTitle' : editing.kind === 'child' ? 'subjects.mindMap.addChildTitle' : 'subjects.mindMap.addSiblingTitle', {
            name: editing.kind === 'edit' ? editedNode?.name : byCode.get(editing.parentCode)?.name,
          })}
          initial={editedNode ? { name: editedNode.name, text: editedNode.text } : { name: '', text: '' }}
          nameReadOnly={editedNode !== undefined && !editedNode.can.rename}
          submitting={addNode.isPending || editNode.isPending}
          onSave={save}
          onReadAgain={readAgain}
          onClose={() => setEditing(undefined)}
        />
      )}
      {deleting && selected && (
        <ConfirmDialog
          title={t('subjects.mindMap.deleteTitle')}
          message={t(descendants === 0 ? 'subjects.mindMap.deleteLeaf' : 'subjects.mindMap.deleteBranch', { name: selected.name, count: descendants })}
          confirmLabel={t('actions.delete')}
          pending={deleteNode.isPending}
          onConfirm={confirmDelete}
          onClose={() => setDeleting(false)}
        />
      )}
      {moving && selected && (
        <MoveDialog nodes={nodes} node={selected} pending={moveNode.isPending} onMove={(parentCode) => move(selected.code, parentCode)} onClose={() => setMoving(false)} />
      )}
      {helpOpen && <ShortcutsDialog canEdit={canEdit} onClose={() => setHelpOpen(false)} />}
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </>
  )
}

/** The selected node's status, text, author and dates: what the drawing has no room for. */
function NodeDetails({ node }: { node: MindMapNode }) {
  const { t } = useTranslation()
  const lifetime = useLifetimeText()
  const event = (person: MindMapNode['createdBy'], date: string) => ({ userId: person?.id ?? 0, userName: person?.name ?? '', date })
  return (
    <Paper variant="outlined" component="section" aria-label={t('subjects.mindMap.details')} sx={{ p: 2, width: { md: 300 }, flexShrink: 0 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
        {node.name}
      </Typography>
      <Box sx={{ my: 1 }}>
        <NodeStatusChip status={node.status} />
      </Box>
      <Typography variant="body2" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }} color={node.text ? 'text.primary' : 'text.secondary'}>
        {node.text || t('subjects.mindMap.noText')}
      </Typography>
      {node.createdAt && (
        <Typography variant="caption" component="p" color="text.secondary" sx={{ mt: 1.5 }}>
          {t('subjects.mindMap.createdWhen', { when: lifetime(event(node.createdBy, node.createdAt), '') })}
        </Typography>
      )}
      {node.updatedAt && (
        <Typography variant="caption" component="p" color="text.secondary">
          {t('subjects.mindMap.updatedWhen', { when: lifetime(event(node.updatedBy, node.updatedAt), '') })}
        </Typography>
      )}
    </Paper>
  )
}

/** Moving without dragging: the new parent chosen in a list (not the node itself, nor a node under it). */
function MoveDialog({ nodes, node, pending, onMove, onClose }: { nodes: MindMapNode[]; node: MindMapNode; pending: boolean; onMove: (parentCode: number) => void; onClose: () => void }) {
  const { t } = useTranslation()
  const excluded = subtreeCodes(nodes, node.code)
  const parents = nodes.filter((candidate) => !excluded.has(candidate.code))
  const [parentCode, setParentCode] = useState(node.parentCode ?? 0)
  return (
    <Dialog open onClose={onClose} maxWidth={false} slotProps={{ paper: { sx: { width: 450, maxWidth: '100%' } } }}>
      <DialogTitle>{t('subjects.mindMap.moveTitle', { name: node.name })}</DialogTitle>
      <DialogContent>
        <TextField select fullWidth label={t('subjects.mindMap.newParent')} value={parentCode} onChange={(event) => setParentCode(Number(event.target.value))} sx={{ mt: 1 }}>
          {parents.map((parent) => (
            <MenuItem key={parent.code} value={parent.code}>
              {parent.name}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.cancel')}</Button>
        <Button variant="contained" loading={pending} disabled={parentCode === node.parentCode} onClick={() => onMove(parentCode)}>
          {t('subjects.mindMap.move')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}

function ShortcutsDialog({ canEdit, onClose }: { canEdit: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const shown = canEdit ? SHORTCUTS : SHORTCUTS.slice(0, 1)
  return (
    <Dialog open onClose={onClose}>
      <DialogTitle>{t('subjects.mindMap.shortcuts')}</DialogTitle>
      <DialogContent>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1, m: 0 }}>
          {shown.map(([keys, description]) => (
            <Box key={keys} sx={{ display: 'contents' }}>
              <Box component="dt" sx={{ fontWeight: 600 }}>
                {t(`subjects.mindMap.keys.${keys}`)}
              </Box>
              <Box component="dd" sx={{ m: 0 }}>
                {t(`subjects.mindMap.${description}`)}
              </Box>
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.close')}</Button>
      </DialogActions>
    </Dialog>
  )
}
