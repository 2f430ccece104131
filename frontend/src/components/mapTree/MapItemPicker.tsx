import Search from '@mui/icons-material/Search'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import InputAdornment from '@mui/material/InputAdornment'
import LinearProgress from '@mui/material/LinearProgress'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemText from '@mui/material/ListItemText'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { SimpleTreeView } from '@mui/x-tree-view/SimpleTreeView'
import { TreeItem } from '@mui/x-tree-view/TreeItem'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { queryKeys } from '../../api/queryKeys'
import { useDebouncedValue } from '../../lib/useDebouncedValue'
import {
  activitiesQuery,
  functionsQuery,
  functionSubjects,
  type MapContextEntry,
  type MapItemPick,
  SUBJECT_PAGE_SIZE,
  searchMapAndSubjects,
  sitesQuery,
  subActivitiesQuery,
} from './api'

export type { MapItemPick, SpotItemType } from './api'

/** A node of the tree: an item of the map, and whether it may have children to load. */
interface TreeNode extends MapItemPick {
  itemId: string
  expandable: boolean
}

/** The children of an expanded node, as far as they are loaded; `nextPage` when more subjects remain. */
type Children = { status: 'loading' } | { status: 'error' } | { status: 'loaded'; nodes: TreeNode[]; nextPage?: number; remaining?: number }

const itemIdOf = (type: string, id: number) => `${type}-${id}`
const MORE_PREFIX = 'more:'

function node(item: MapContextEntry, parent: TreeNode | null, expandable: boolean): TreeNode {
  const context = parent ? [...parent.context, { type: parent.type, id: parent.id, name: parent.name }] : []
  return { ...item, context, itemId: itemIdOf(item.type, item.id), expandable }
}

/** What the user reads for a found item: where it sits below its site. */
export function contextText(context: MapContextEntry[]): string {
  return context.map((entry) => entry.name).join(' › ')
}

interface MapItemPickerProps {
  title: string
  /** The chosen item, with the path from its site down to its parent. */
  onPick: (item: MapItemPick) => void
  onClose: () => void
}

/**
 * A dialog to choose any item of the map: sites, cartographies, activities (nested), functions and
 * their subjects, as a tree whose branches load when opened (arrows move and open, Enter or Space
 * selects), or found by name through the search field.
 */
export function MapItemPicker({ title, onPick, onClose }: MapItemPickerProps) {
  const { t } = useTranslation()
  const titleId = useId()
  const [search, setSearch] = useState('')
  const typed = search.trim()
  const text = useDebouncedValue(typed)
  const [selected, setSelected] = useState<TreeNode | null>(null)
  const [picked, setPicked] = useState<MapItemPick | null>(null)

  const choose = () => {
    const chosen = typed === '' ? selected : picked
    if (chosen) onPick({ type: chosen.type, id: chosen.id, name: chosen.name, context: chosen.context })
  }

  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth={false}
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: { width: 700, maxWidth: '100%', height: 'min(720px, 100% - 64px)' } } }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <TextField
          value={search}
          onChange={(event) => {
            setSearch(event.target.value)
            setPicked(null)
          }}
          label={t('mapTree.search')}
          helperText={t('mapTree.searchHelp')}
          autoComplete="off"
          fullWidth
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search /></InputAdornment> } }}
        />
        {typed === '' ? (
          <MapTree selected={selected} onSelect={setSelected} />
        ) : (
          <SearchResults text={text} waiting={text !== typed} picked={picked} onPick={setPicked} onChoose={onPick} />
        )}
      </DialogContent>
      <DialogActions>
        <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1, px: 1, overflowWrap: 'anywhere' }} aria-live="polite">
          {(typed === '' ? selected : picked) ? t('mapTree.selected', { name: (typed === '' ? selected : picked)?.name }) : t('mapTree.nothingSelected')}
        </Typography>
        <Button onClick={onClose}>{t('actions.cancel')}</Button>
        <Button variant="contained" disabled={(typed === '' ? selected : picked) === null} onClick={choose}>
          {t('mapTree.choose')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}

function TypeCaption({ type }: { type: string }) {
  const { t } = useTranslation()
  return (
    <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
      {t(`mapTree.types.${type}`)}
    </Typography>
  )
}

function MapTree({ selected, onSelect }: { selected: TreeNode | null; onSelect: (node: TreeNode | null) => void }) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const sites = useQuery(sitesQuery)
  const helpId = useId()
  const [children, setChildren] = useState<Record<string, Children>>({})
  const [expanded, setExpanded] = useState<string[]>([])

  const roots = useMemo(
    () =>
      (sites.data ?? []).map((site) => {
        const siteNode = node({ type: 'site', id: site.id, name: site.name }, null, site.cartographies.length > 0)
        return { siteNode, cartographies: site.cartographies.map((c) => node({ type: 'cartography', id: c.id, name: c.name }, siteNode, true)) }
      }),
    [sites.data],
  )

  /** Every node shown, by item id, to find the one selected. */
  const index = useMemo(() => {
    const found = new Map<string, TreeNode>()
    roots.forEach(({ siteNode, cartographies }) => [siteNode, ...cartographies].forEach((n) => found.set(n.itemId, n)))
    Object.values(children).forEach((entry) => {
      if (entry.status === 'loaded') entry.nodes.forEach((n) => found.set(n.itemId, n))
    })
    return found
  }, [roots, children])

  const loadSubjects = async (parent: TreeNode, page: number, before: TreeNode[]) => {
    const answer = await functionSubjects(parent.id, page)
    const nodes = [...before, ...answer.results.map((s) => node({ type: 'subject', id: s.id, name: s.name }, parent, false))]
    const remaining = answer.totalItems - nodes.length
    return { status: 'loaded' as const, nodes, nextPage: remaining > 0 ? page + 1 : undefined, remaining }
  }

  const fetchChildren = async (parent: TreeNode): Promise<Children> => {
    switch (parent.type) {
      case 'cartography': {
        const [activities, functions] = await Promise.all([
          queryClient.fetchQuery(activitiesQuery(parent.id)),
          queryClient.fetchQuery(functionsQuery(parent.id)),
        ])
        return {
          status: 'loaded',
          nodes: [
            ...activities.map((a) => node({ type: 'activity', id: a.id, name: a.name }, parent, a.hasSubActivities)),
            ...functions.map((f) => node({ type: 'function', id: f.id, name: f.name }, parent, true)),
          ],
        }
      }
      case 'activity': {
        const activities = await queryClient.fetchQuery(subActivitiesQuery(parent.id))
        return { status: 'loaded', nodes: activities.map((a) => node({ type: 'activity', id: a.id, name: a.name }, parent, a.hasSubActivities)) }
      }
      case 'function':
        return loadSubjects(parent, 1, [])
      default:
        return { status: 'loaded', nodes: [] }
    }
  }

  const load = (parent: TreeNode, run: () => Promise<Children>, keep?: Children) => {
    setChildren((current) => ({ ...current, [parent.itemId]: keep ?? { status: 'loading' } }))
    run()
      .then((loaded) => setChildren((current) => ({ ...current, [parent.itemId]: loaded })))
      .catch(() => setChildren((current) => ({ ...current, [parent.itemId]: { status: 'error' } })))
  }

  const onExpansion = (itemId: string, isExpanded: boolean) => {
    const parent = index.get(itemId)
    if (!isExpanded || !parent || parent.type === 'site' || children[itemId]?.status === 'loaded' || children[itemId]?.status === 'loading') return
    load(parent, () => fetchChildren(parent))
  }

  /** The "more subjects" entry of a function: its next page joins the ones shown. */
  const loadMore = (functionItemId: string) => {
    const parent = index.get(functionItemId)
    const current = children[functionItemId]
    if (!parent || current?.status !== 'loaded' || current.nextPage === undefined) return
    const { nextPage, nodes } = current
    load(parent, () => loadSubjects(parent, nextPage, nodes), { ...current, nextPage: undefined })
  }

  const renderChildren = (parent: TreeNode) => {
    const entry = children[parent.itemId]
    if (!entry || entry.status === 'loading') {
      return <TreeItem itemId={`${parent.itemId}:loading`} label={t('common.loading')} disabled />
    }
    if (entry.status === 'error') return <TreeItem itemId={`${parent.itemId}:error`} label={t('mapTree.loadFailed')} disabled />
    if (entry.nodes.length === 0) return <TreeItem itemId={`${parent.itemId}:empty`} label={t('mapTree.empty')} disabled />
    return (
      <>
        {entry.nodes.map(renderNode)}
        {entry.remaining !== undefined && entry.remaining > 0 && (
          <TreeItem
            itemId={`${MORE_PREFIX}${parent.itemId}`}
            label={entry.nextPage === undefined ? t('common.loading') : t('mapTree.moreSubjects', { count: Math.min(entry.remaining, SUBJECT_PAGE_SIZE) })}
          />
        )}
      </>
    )
  }

  const renderNode = (item: TreeNode) => (
    <TreeItem
      key={item.itemId}
      itemId={item.itemId}
      label={
        <>
          {item.name}
          <TypeCaption type={item.type} />
        </>
      }
    >
      {item.expandable ? renderChildren(item) : null}
    </TreeItem>
  )

  if (sites.isError) return <Alert severity="error">{t('mapTree.loadFailed')}</Alert>
  if (!sites.data) return <LinearProgress aria-label={t('common.loading')} />
  if (roots.length === 0) return <Typography color="text.secondary">{t('mapTree.noSite')}</Typography>
  return (
    <Box sx={{ flexGrow: 1, overflowY: 'auto', minHeight: 200 }}>
      <Typography id={helpId} variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('mapTree.treeHelp')}
      </Typography>
      <SimpleTreeView
        aria-label={t('mapTree.tree')}
        aria-describedby={helpId}
        expandedItems={expanded}
        onExpandedItemsChange={(_event, items) => setExpanded(items)}
        onItemExpansionToggle={(_event, itemId, isExpanded) => onExpansion(itemId, isExpanded)}
        selectedItems={selected?.itemId ?? null}
        onSelectedItemsChange={(_event, itemId) => {
          if (itemId !== null && itemId.startsWith(MORE_PREFIX)) return loadMore(itemId.slice(MORE_PREFIX.length))
          onSelect(itemId === null ? null : (index.get(itemId) ?? null))
        }}
      >
        {roots.map(({ siteNode, cartographies }) => (
          <TreeItem
            key={siteNode.itemId}
            itemId={siteNode.itemId}
            label={
              <>
                {siteNode.name}
                <TypeCaption type="site" />
              </>
            }
          >
            {cartographies.length > 0 ? cartographies.map(renderNode) : null}
          </TreeItem>
        ))}
      </SimpleTreeView>
    </Box>
  )
}

interface SearchResultsProps {
  text: string
  /** The text typed is not searched yet (debounce). */
  waiting: boolean
  picked: MapItemPick | null
  onPick: (item: MapItemPick) => void
  onChoose: (item: MapItemPick) => void
}

function SearchResults({ text, waiting, picked, onPick, onChoose }: SearchResultsProps) {
  const { t } = useTranslation()
  const found = useQuery({
    queryKey: queryKeys.mapping.itemSearch(text),
    queryFn: () => searchMapAndSubjects(text),
    enabled: text !== '',
    staleTime: 30_000,
  })
  if (waiting || found.isPending) return <LinearProgress aria-label={t('common.loading')} />
  if (found.isError) return <Alert severity="error">{t('mapTree.loadFailed')}</Alert>
  if (found.data.length === 0) return <Typography color="text.secondary">{t('mapTree.noResult')}</Typography>
  return (
    <List dense aria-label={t('mapTree.results')} sx={{ flexGrow: 1, overflowY: 'auto' }}>
      {found.data.map((item) => (
        <ListItem key={itemIdOf(item.type, item.id)} disablePadding>
          <ListItemButton
            selected={picked?.type === item.type && picked.id === item.id}
            onClick={() => onPick(item)}
            onDoubleClick={() => onChoose(item)}
          >
            <ListItemText
              primary={
                <>
                  {item.name}
                  <TypeCaption type={item.type} />
                </>
              }
              secondary={contextText(item.context) || undefined}
            />
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  )
}
