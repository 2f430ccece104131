/**
 * SavedFiltersMenu: the signed-in user's saved filters of one entity type (GET /account/filters).
 *
 * Props:
 * - entityType: the query-language entity type whose filters are listed and saved.
 * - current: the list's applied filter and sort, which "Save the current filter" saves.
 * - currentProblem?: why the current filter cannot be saved, as a message key (it is empty, or the
 *   server refuses it); undefined when it can be.
 * - onApply(saved): called when the user picks a saved filter.
 *
 * Saving, renaming, deleting and choosing the default all send the whole list of the entity type
 * (POST /account/filters replaces it). Names follow the general text rule and are unique ignoring case
 * and accents; at most one filter is the default (choosing one clears the previous).
 */
import BookmarkAdd from '@mui/icons-material/BookmarkAddOutlined'
import BookmarksOutlined from '@mui/icons-material/BookmarksOutlined'
import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import EditOutlined from '@mui/icons-material/EditOutlined'
import Star from '@mui/icons-material/Star'
import StarBorder from '@mui/icons-material/StarBorder'
import Badge from '@mui/material/Badge'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Divider from '@mui/material/Divider'
import IconButton from '@mui/material/IconButton'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Popover from '@mui/material/Popover'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isApiError } from '../../api/errors'
import { ConfirmDialog } from '../ConfirmDialog'
import { Notice } from '../Notice'
import { savedFiltersQuery, useSaveFilters } from '../../lib/querylang/api'
import { withAdded, withDefault, withRemoved, withRenamed } from '../../lib/querylang/savedFilters'
import type { SavedFilter } from '../../lib/querylang/types'
import { FilterNameDialog } from './FilterNameDialog'
import { useListMessage } from './messages'

export interface SavedFiltersMenuProps {
  entityType: string
  current: { filter: string; sorting: string }
  currentProblem?: string
  onApply: (saved: SavedFilter) => void
}

type Dialog = { kind: 'save' } | { kind: 'rename' | 'delete'; filter: SavedFilter }

export function SavedFiltersMenu({ entityType, current, currentProblem, onApply }: SavedFiltersMenuProps) {
  const { t } = useTranslation()
  const message = useListMessage()
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const [dialog, setDialog] = useState<Dialog>()
  const [notice, setNotice] = useState<string>()
  const [refused, setRefused] = useState<string>()
  const saved = useQuery(savedFiltersQuery)
  const save = useSaveFilters(entityType, [409])
  const filters = saved.data?.[entityType] ?? []

  const open = (next: Dialog) => {
    setAnchor(null)
    setDialog(next)
  }
  const done = (text: string) => () => {
    setDialog(undefined)
    setNotice(text)
  }
  // Another window saved meanwhile (409): the list is being read again, from which to try again.
  const stale = (error: unknown) => {
    setDialog(undefined)
    if (isApiError(error, 409)) setRefused(message('staleVersion'))
  }

  return (
    <>
      <Button
        variant="outlined"
        startIcon={
          <Badge badgeContent={filters.length} color="primary" max={99} slotProps={{ badge: { 'aria-hidden': true } }}>
            <BookmarksOutlined />
          </Badge>
        }
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="dialog"
      >
        {t('lists.saved.button')}
      </Button>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { sx: { width: 420, maxWidth: 'calc(100vw - 32px)' }, role: 'dialog', 'aria-label': t('lists.saved.title') } }}
      >
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5 }}>
          {t('lists.saved.title')}
        </Typography>
        {filters.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1.5 }}>
            {t('lists.saved.none')}
          </Typography>
        ) : (
          <List dense aria-label={t('lists.saved.title')}>
            {filters.map((filter) => (
              <ListItem
                key={filter.name}
                disablePadding
                secondaryAction={
                  <Box sx={{ display: 'flex' }}>
                    <Tooltip title={filter.isDefault ? t('lists.saved.unsetDefault') : t('lists.saved.setDefault')}>
                      <IconButton
                        size="small"
                        aria-pressed={filter.isDefault}
                        aria-label={t('lists.saved.defaultLabel', { name: filter.name })}
                        disabled={save.isPending}
                        onClick={() =>
                          save.mutate(withDefault(filters, filter.isDefault ? null : filter.name), {
                            onSuccess: () => setNotice(filter.isDefault ? t('lists.saved.defaultUnset') : t('lists.saved.defaultSet', { name: filter.name })),
                            onError: stale,
                          })
                        }
                      >
                        {filter.isDefault ? <Star fontSize="small" color="warning" /> : <StarBorder fontSize="small" />}
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('lists.saved.rename')}>
                      <IconButton size="small" aria-label={t('lists.saved.renameLabel', { name: filter.name })} onClick={() => open({ kind: 'rename', filter })}>
                        <EditOutlined fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('actions.delete')}>
                      <IconButton size="small" aria-label={t('lists.saved.deleteLabel', { name: filter.name })} onClick={() => open({ kind: 'delete', filter })}>
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </Box>
                }
                sx={{ '& .MuiListItemButton-root': { pr: 15 } }}
              >
                <ListItemButton
                  onClick={() => {
                    setAnchor(null)
                    onApply(filter)
                  }}
                >
                  <ListItemText
                    primary={filter.name}
                    secondary={filter.isDefault ? t('lists.saved.isDefault') : undefined}
                    slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
        <Divider />
        <List dense disablePadding>
          <ListItem disablePadding>
            <ListItemButton disabled={currentProblem !== undefined} onClick={() => open({ kind: 'save' })}>
              <ListItemIcon sx={{ minWidth: 36 }}>
                <BookmarkAdd fontSize="small" />
              </ListItemIcon>
              <ListItemText primary={t('lists.saved.saveCurrent')} secondary={message(currentProblem)} />
            </ListItemButton>
          </ListItem>
        </List>
      </Popover>
      {dialog?.kind === 'save' && (
        <FilterNameDialog
          title={t('lists.saved.saveTitle')}
          entityType={entityType}
          filters={filters}
          offerDefault
          build={(name, isDefault) => withAdded(filters, { name, filter: current.filter, sorting: current.sorting, isDefault })}
          onSaved={done(t('lists.saved.saved'))}
          onClose={() => setDialog(undefined)}
        />
      )}
      {dialog?.kind === 'rename' && (
        <FilterNameDialog
          title={t('lists.saved.renameTitle', { name: dialog.filter.name })}
          entityType={entityType}
          filters={filters}
          renaming={dialog.filter.name}
          build={(name) => withRenamed(filters, dialog.filter.name, name)}
          onSaved={done(t('lists.saved.renamed'))}
          onClose={() => setDialog(undefined)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={t('lists.saved.deleteTitle')}
          message={t('lists.saved.deleteMessage', { name: dialog.filter.name })}
          confirmLabel={t('actions.delete')}
          pending={save.isPending}
          onConfirm={() =>
            save.mutate(withRemoved(filters, dialog.filter.name), { onSuccess: done(t('lists.saved.deleted')), onError: stale })
          }
          onClose={() => setDialog(undefined)}
        />
      )}
      <Notice message={notice} onClose={() => setNotice(undefined)} />
      <Notice message={refused} severity="warning" onClose={() => setRefused(undefined)} />
    </>
  )
}
