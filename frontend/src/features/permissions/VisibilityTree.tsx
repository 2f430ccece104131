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
import { cartographiesOf } from './visibility'

interface VisibilityTreeProps {
  tree: TreeNode[]
  /** The cartographies the group sees. */
  seen: Set<number>
  /** False while the group is unrestricted: the checks then only show that it sees everything. */
  editable: boolean
  onToggle: (cartographyIds: number[], checked: boolean) => void
}

/** The sites and their cartographies, each with a check; a cartography unfolds its activities and functions. */
export function VisibilityTree({ tree, seen, editable, onToggle }: VisibilityTreeProps) {
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
          const checkedCount = cartographies.filter((c) => seen.has(c.id)).length
          const open = !closedSites.has(site.id)
          return (
            <li key={site.id}>
              <ListItem
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
                    checked={cartographies.length > 0 && checkedCount === cartographies.length}
                    indeterminate={checkedCount > 0 && checkedCount < cartographies.length}
                    onChange={(event) => onToggle(cartographies.map((c) => c.id), event.target.checked)}
                    slotProps={{ input: { 'aria-label': t('visibility.siteAll', { site: site.name }) } }}
                  />
                </ListItemIcon>
                <FactoryOutlined color="action" sx={{ mr: 1.5 }} />
                <ListItemText primary={site.name} secondary={site.code} slotProps={{ primary: { sx: { fontWeight: 600 } } }} />
                <Chip
                  size="small"
                  sx={{ mr: 2 }}
                  label={t('visibility.checkedCount', { count: checkedCount, total: cartographies.length })}
                />
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
                        checked={seen.has(cartography.id)}
                        editable={editable}
                        open={openCartographies.has(cartography.id)}
                        onToggle={(checked) => onToggle([cartography.id], checked)}
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
  checked: boolean
  editable: boolean
  open: boolean
  onToggle: (checked: boolean) => void
  onOpen: () => void
}

function CartographyRow({ cartography, checked, editable, open, onToggle, onOpen }: CartographyRowProps) {
  const { t } = useTranslation()
  const activities = cartography.children.filter((node) => node.type === 'activity')
  const functions = cartography.children.filter((node) => node.type === 'function')
  return (
    <li>
      <ListItem
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
            checked={checked}
            onChange={(event) => onToggle(event.target.checked)}
            slotProps={{ input: { 'aria-label': cartography.name } }}
          />
        </ListItemIcon>
        <ListItemText primary={cartography.name} secondary={cartography.code} />
      </ListItem>
      <Collapse in={open} unmountOnExit>
        <List dense disablePadding sx={{ pl: 12, pb: 1, bgcolor: 'action.hover' }}>
          {activities.length === 0 && functions.length === 0 && (
            <ListItem>
              <ListItemText secondary={t('visibility.noItem')} />
            </ListItem>
          )}
          {activities.length > 0 && <ListSubheader sx={{ bgcolor: 'transparent', lineHeight: 2.5 }}>{t('visibility.activities')}</ListSubheader>}
          <Activities nodes={activities} depth={0} />
          {functions.length > 0 && <ListSubheader sx={{ bgcolor: 'transparent', lineHeight: 2.5 }}>{t('visibility.functions')}</ListSubheader>}
          {functions.map((fn) => (
            <ListItem key={fn.id} sx={{ py: 0 }}>
              <ListItemIcon sx={{ minWidth: 32 }}>
                <BadgeOutlined fontSize="small" />
              </ListItemIcon>
              <ListItemText primary={fn.name} />
            </ListItem>
          ))}
        </List>
      </Collapse>
    </li>
  )
}

function Activities({ nodes, depth }: { nodes: TreeNode[]; depth: number }) {
  return nodes.map((activity) => (
    <li key={activity.id}>
      <ListItem component="div" sx={{ py: 0, pl: 2 + depth * 3 }}>
        {depth > 0 && <SubdirectoryArrowRight fontSize="small" color="action" sx={{ mr: 1 }} />}
        <ListItemText primary={activity.name} slotProps={{ primary: { sx: { fontWeight: depth === 0 ? 500 : 400 } } }} />
      </ListItem>
      {activity.children.length > 0 && (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          <Activities nodes={activity.children} depth={depth + 1} />
        </ul>
      )}
    </li>
  ))
}
