import BadgeOutlined from '@mui/icons-material/BadgeOutlined'
import ExpandLess from '@mui/icons-material/ExpandLess'
import ExpandMore from '@mui/icons-material/ExpandMore'
import FactoryOutlined from '@mui/icons-material/FactoryOutlined'
import SubdirectoryArrowRight from '@mui/icons-material/SubdirectoryArrowRight'
import Checkbox from '@mui/material/Checkbox'
import Chip from '@mui/material/Chip'
import Collapse from '@mui/material/Collapse'
import IconButton from '@mui/material/IconButton'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import ListSubheader from '@mui/material/ListSubheader'
import Paper from '@mui/material/Paper'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { TreeNode } from './api'
import {
  type Draft,
  type MapIndex,
  cartographiesOf,
  cartographyState,
  hasTickedBelow,
  isItemTicked,
  setActivity,
  setCartographies,
  setFunction,
} from './visibility'

interface VisibilityTreeProps {
  tree: TreeNode[]
  index: MapIndex
  /** What the group sees (while unrestricted: every cartography whole). */
  draft: Draft
  /** False while the group is unrestricted: the ticks then only show that it sees everything. */
  editable: boolean
  onChange: (draft: Draft) => void
}

/**
 * The sites and their cartographies, each with a tick; a cartography unfolds its activities and
 * functions, each with a tick too: ticking some of them limits the cartography to them.
 */
export function VisibilityTree({ tree, index, draft, editable, onChange }: VisibilityTreeProps) {
  const { t } = useTranslation()
  const [closedSites, setClosedSites] = useState<Set<number>>(new Set())
  const [openCartographies, setOpenCartographies] = useState<Set<number>>(new Set())
  const flip = (set: Set<number>, id: number) => {
    const next = new Set(set)
    if (!next.delete(id)) next.add(id)
    return next
  }

  if (tree.length === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
        <Typography color="text.secondary">{t('visibility.emptyTree')}</Typography>
      </Paper>
    )
  }

  return (
    <Paper variant="outlined">
      <List aria-label={t('visibility.tree')} disablePadding>
        {tree.map((site) => {
          const cartographies = cartographiesOf(site)
          const states = cartographies.map((c) => cartographyState(draft, index, c.id))
          const whole = states.filter((state) => state === 'whole').length
          const seen = states.filter((state) => state !== 'none').length
          const open = !closedSites.has(site.id)
          return (
            <li key={site.id}>
              {/* A div: the <li> around it is the list's item (an <li> in an <li> fails axe). */}
              <ListItem
                component="div"
                divider
                secondaryAction={
                  <IconButton
                    edge="end"
                    aria-expanded={open}
                    aria-label={t(open ? 'visibility.hideSite' : 'visibility.showSite', { name: site.name })}
                    onClick={() => setClosedSites(flip(closedSites, site.id))}
                  >
                    {open ? <ExpandLess /> : <ExpandMore />}
                  </IconButton>
                }
              >
                <ListItemIcon sx={{ minWidth: 44 }}>
                  <Checkbox
                    edge="start"
                    disabled={!editable || cartographies.length === 0}
                    checked={cartographies.length > 0 && whole === cartographies.length}
                    indeterminate={seen > 0 && whole < cartographies.length}
                    onChange={(event) => onChange(setCartographies(draft, index, cartographies.map((c) => c.id), event.target.checked))}
                    slotProps={{ input: { 'aria-label': t('visibility.siteAll', { site: site.name }) } }}
                  />
                </ListItemIcon>
                <FactoryOutlined color="action" sx={{ mr: 1.5 }} />
                <ListItemText primary={site.name} secondary={site.code} slotProps={{ primary: { sx: { fontWeight: 600 } } }} />
                <Chip size="small" sx={{ mr: 2 }} label={t('visibility.checkedCount', { count: seen, total: cartographies.length })} />
              </ListItem>
              <Collapse in={open} unmountOnExit>
                {cartographies.length === 0 ? (
                  <Typography variant="body2" color="text.secondary" sx={{ py: 1.5, pl: 9 }}>
                    {t('visibility.noCartography')}
                  </Typography>
                ) : (
                  <List disablePadding>
                    {cartographies.map((cartography) => (
                      <CartographyRow
                        key={cartography.id}
                        cartography={cartography}
                        index={index}
                        draft={draft}
                        editable={editable}
                        open={openCartographies.has(cartography.id)}
                        onChange={onChange}
                        onOpen={() => setOpenCartographies(flip(openCartographies, cartography.id))}
                      />
                    ))}
                  </List>
                )}
              </Collapse>
            </li>
          )
        })}
      </List>
    </Paper>
  )
}

interface CartographyRowProps {
  cartography: TreeNode
  index: MapIndex
  draft: Draft
  editable: boolean
  open: boolean
  onChange: (draft: Draft) => void
  onOpen: () => void
}

function CartographyRow({ cartography, index, draft, editable, open, onChange, onOpen }: CartographyRowProps) {
  const { t } = useTranslation()
  const activities = cartography.children.filter((node) => node.type === 'activity')
  const functions = cartography.children.filter((node) => node.type === 'function')
  const state = cartographyState(draft, index, cartography.id)
  const inside = (id: number) => index.cartographyOf.get(id) === cartography.id
  // In a limited cartography, an axis with nothing ticked is not limited: say so under its heading.
  const allOf = (ticked: number[]) => state === 'limited' && !ticked.some(inside)
  return (
    <li>
      <ListItem
        component="div"
        divider
        sx={{ pl: 5 }}
        secondaryAction={
          <IconButton
            edge="end"
            aria-expanded={open}
            aria-label={t(open ? 'visibility.hideItems' : 'visibility.showItems', { name: cartography.name })}
            onClick={onOpen}
          >
            {open ? <ExpandLess /> : <ExpandMore />}
          </IconButton>
        }
      >
        <ListItemIcon sx={{ minWidth: 44 }}>
          <Checkbox
            edge="start"
            disabled={!editable}
            checked={state === 'whole'}
            indeterminate={state === 'limited'}
            onChange={(event) => onChange(setCartographies(draft, index, [cartography.id], event.target.checked))}
            slotProps={{ input: { 'aria-label': cartography.name } }}
          />
        </ListItemIcon>
        <ListItemText primary={cartography.name} secondary={state === 'limited' ? t('visibility.limited', { code: cartography.code }) : cartography.code} />
      </ListItem>
      <Collapse in={open} unmountOnExit>
        <List dense disablePadding sx={{ pl: 8, pb: 1, bgcolor: 'action.hover' }}>
          {activities.length === 0 && functions.length === 0 && (
            <ListItem>
              <ListItemText secondary={t('visibility.noItem')} />
            </ListItem>
          )}
          {activities.length > 0 && (
            <ListSubheader sx={{ bgcolor: 'transparent', lineHeight: 2.5 }}>
              {t('visibility.activities')}
              {allOf(draft.activity) && <Typography component="span" variant="body2" sx={{ ml: 1 }}>{t('visibility.allActivities')}</Typography>}
            </ListSubheader>
          )}
          <Activities nodes={activities} depth={0} index={index} draft={draft} editable={editable} onChange={onChange} />
          {functions.length > 0 && (
            <ListSubheader sx={{ bgcolor: 'transparent', lineHeight: 2.5 }}>
              {t('visibility.functions')}
              {allOf(draft.function) && <Typography component="span" variant="body2" sx={{ ml: 1 }}>{t('visibility.allFunctions')}</Typography>}
            </ListSubheader>
          )}
          {functions.map((fn) => (
            <ListItem key={fn.id} sx={{ py: 0 }}>
              <ListItemIcon sx={{ minWidth: 40 }}>
                <Checkbox
                  size="small"
                  edge="start"
                  disabled={!editable}
                  checked={isItemTicked(draft, index, fn)}
                  onChange={(event) => onChange(setFunction(draft, index, fn.id, event.target.checked))}
                  slotProps={{ input: { 'aria-label': t('visibility.function', { name: fn.name }) } }}
                />
              </ListItemIcon>
              <BadgeOutlined fontSize="small" color="action" sx={{ mr: 1 }} />
              <ListItemText primary={fn.name} />
            </ListItem>
          ))}
        </List>
      </Collapse>
    </li>
  )
}

interface ActivitiesProps {
  nodes: TreeNode[]
  depth: number
  index: MapIndex
  draft: Draft
  editable: boolean
  onChange: (draft: Draft) => void
}

function Activities({ nodes, depth, index, draft, editable, onChange }: ActivitiesProps) {
  const { t } = useTranslation()
  return nodes.map((activity) => {
    const ticked = isItemTicked(draft, index, activity)
    return (
      <li key={activity.id}>
        <ListItem component="div" sx={{ py: 0, pl: 2 + depth * 3 }}>
          {depth > 0 && <SubdirectoryArrowRight fontSize="small" color="action" sx={{ mr: 1 }} />}
          <ListItemIcon sx={{ minWidth: 40 }}>
            <Checkbox
              size="small"
              edge="start"
              disabled={!editable}
              checked={ticked}
              indeterminate={!ticked && hasTickedBelow(draft, index, activity.id)}
              onChange={(event) => onChange(setActivity(draft, index, activity.id, event.target.checked))}
              slotProps={{ input: { 'aria-label': t('visibility.activity', { name: activity.name }) } }}
            />
          </ListItemIcon>
          <ListItemText primary={activity.name} slotProps={{ primary: { sx: { fontWeight: depth === 0 ? 500 : 400 } } }} />
        </ListItem>
        {activity.children.length > 0 && (
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            <Activities nodes={activity.children} depth={depth + 1} index={index} draft={draft} editable={editable} onChange={onChange} />
          </ul>
        )}
      </li>
    )
  })
}
