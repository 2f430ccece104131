import BookmarksOutlined from '@mui/icons-material/BookmarksOutlined'
import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import Star from '@mui/icons-material/Star'
import Badge from '@mui/material/Badge'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Popover from '@mui/material/Popover'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { type ReportConfiguration, useDeleteConfiguration } from './api'
import { shownName } from './reportForm'

interface SavedSetsMenuProps {
  configurations: ReportConfiguration[]
  /** The name of the set the form was loaded from, if any. */
  current?: string
  onLoad: (configuration: ReportConfiguration) => void
  onDeleted: (name: string) => void
}

/** The user's saved parameter sets (spec 2 §2, §9): names cut to 25 characters (whole in a tooltip), the default starred; load or delete one. */
export function SavedSetsMenu({ configurations, current, onLoad, onDeleted }: SavedSetsMenuProps) {
  const { t } = useTranslation()
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const [deleting, setDeleting] = useState<string>()
  const remove = useDeleteConfiguration()

  return (
    <>
      <Button
        variant="outlined"
        startIcon={
          <Badge badgeContent={configurations.length} color="primary" max={99} slotProps={{ badge: { 'aria-hidden': true } }}>
            <BookmarksOutlined />
          </Badge>
        }
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="dialog"
      >
        {t('reports.saved.button')}
      </Button>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 360, maxWidth: 'calc(100vw - 32px)' }, role: 'dialog', 'aria-label': t('reports.saved.title') } }}
      >
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5 }}>
          {t('reports.saved.title')}
        </Typography>
        {configurations.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1.5 }}>
            {t('reports.saved.none')}
          </Typography>
        ) : (
          <List dense aria-label={t('reports.saved.title')}>
            {configurations.map((configuration) => {
              const shown = shownName(configuration.name)
              return (
                <ListItem
                  key={configuration.name}
                  disablePadding
                  secondaryAction={
                    <Tooltip title={t('actions.delete')}>
                      <IconButton edge="end" size="small" aria-label={t('reports.saved.deleteLabel', { name: configuration.name })} onClick={() => {
                        setAnchor(null)
                        setDeleting(configuration.name)
                      }}>
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  }
                >
                  {/* Named by the text it shows, as speech input users say it; a cut name is described by the whole one. */}
                  <Tooltip title={shown === configuration.name ? '' : configuration.name} placement="left" describeChild>
                    <ListItemButton
                      selected={configuration.name === current}
                      onClick={() => {
                        setAnchor(null)
                        onLoad(configuration)
                      }}
                    >
                      <ListItemIcon sx={{ minWidth: 32 }}>{configuration.isDefault && <Star fontSize="small" sx={{ color: 'warning.dark' }} />}</ListItemIcon>
                      <ListItemText primary={shown} secondary={configuration.isDefault ? t('reports.saved.isDefault') : undefined} />
                    </ListItemButton>
                  </Tooltip>
                </ListItem>
              )
            })}
          </List>
        )}
      </Popover>
      {deleting !== undefined && (
        <ConfirmDialog
          title={t('reports.saved.deleteTitle')}
          message={t('reports.saved.deleteMessage', { name: deleting })}
          confirmLabel={t('actions.delete')}
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(deleting, {
              onSuccess: () => {
                onDeleted(deleting)
                setDeleting(undefined)
              },
              onError: () => setDeleting(undefined),
            })
          }
          onClose={() => setDeleting(undefined)}
        />
      )}
    </>
  )
}
