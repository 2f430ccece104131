import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core'
import { arrayMove, rectSortingStrategy, SortableContext, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import Add from '@mui/icons-material/Add'
import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import DragIndicator from '@mui/icons-material/DragIndicator'
import EditOutlined from '@mui/icons-material/EditOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import ButtonBase from '@mui/material/ButtonBase'
import IconButton from '@mui/material/IconButton'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { visuallyHidden } from '@mui/utils'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '../ConfirmDialog'
import { type Gallery, galleryQuery, type Parent, type Resource, storedFileQuery, useDeleteResource, useReorderResources } from './api'
import { Carousel } from './Carousel'
import { ResourceDialog } from './ResourceDialog'
import { ResourceIcon } from './ResourceIcon'
import { shortName, THUMBNAIL_HEIGHT, THUMBNAIL_WIDTH } from './rules'

/** The resource gallery of an item (spec 1 §2): thumbnails in their order, a carousel, and for those
 * the server allows (`can.edit`), adding, editing, deleting and reordering (by drag or keyboard). */
export function ResourceGallery({ parentType, parentId }: Parent) {
  const { t } = useTranslation()
  const parent = { parentType, parentId }
  const { data: gallery } = useQuery(galleryQuery(parent))
  const [editing, setEditing] = useState<Resource | 'new'>()
  const [deleting, setDeleting] = useState<Resource>()
  const [viewing, setViewing] = useState<number>()
  const remove = useDeleteResource(parent)
  if (!gallery) return null
  const resources = gallery.resources
  const viewable = resources.filter((resource) => resource.resourceType !== 'link')

  return (
    <Paper variant="outlined" component="section" aria-labelledby={`gallery-${parentType}-${parentId}`} sx={{ p: 2, mb: 3 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5, gap: 2 }}>
        <Typography id={`gallery-${parentType}-${parentId}`} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t('gallery.title')}
        </Typography>
        {gallery.can.edit && (
          <Button size="small" startIcon={<Add />} onClick={() => setEditing('new')}>
            {t('gallery.add')}
          </Button>
        )}
      </Stack>
      {resources.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('gallery.empty')}
        </Typography>
      ) : (
        <Tiles
          parent={parent}
          gallery={gallery}
          onOpen={(resource) => setViewing(viewable.findIndex((shown) => shown.id === resource.id))}
          onEdit={setEditing}
          onDelete={setDeleting}
        />
      )}
      {editing && <ResourceDialog parent={parent} resource={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
      {deleting && (
        <ConfirmDialog
          title={t('gallery.deleteTitle')}
          message={t('gallery.deleteMessage', { name: deleting.name })}
          confirmLabel={t('actions.delete')}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(deleting.id, { onSettled: () => setDeleting(undefined) })}
          onClose={() => setDeleting(undefined)}
        />
      )}
      {viewing !== undefined && viewing >= 0 && <Carousel resources={viewable} start={viewing} onClose={() => setViewing(undefined)} />}
    </Paper>
  )
}

interface TilesProps {
  parent: Parent
  gallery: Gallery
  onOpen: (resource: Resource) => void
  onEdit: (resource: Resource) => void
  onDelete: (resource: Resource) => void
}

function Tiles({ parent, gallery, onOpen, onEdit, onDelete }: TilesProps) {
  const { t } = useTranslation()
  const reorder = useReorderResources(parent)
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }))
  const resources = gallery.resources
  const nameOf = (id: string | number) => resources.find((resource) => resource.id === Number(id))?.name ?? ''
  const positionOf = (id: string | number) => resources.findIndex((resource) => resource.id === Number(id)) + 1
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('gallery.move.picked', { name: nameOf(active.id), position: positionOf(active.id) }),
    onDragOver: ({ active, over }) => (over ? t('gallery.move.over', { name: nameOf(active.id), position: positionOf(over.id) }) : undefined),
    onDragEnd: ({ active, over }) => (over ? t('gallery.move.dropped', { name: nameOf(active.id), position: positionOf(over.id) }) : undefined),
    onDragCancel: ({ active }) => t('gallery.move.cancelled', { name: nameOf(active.id) }),
  }
  const dropped = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return
    const ids = resources.map((resource) => resource.id)
    reorder.mutate(arrayMove(ids, ids.indexOf(Number(active.id)), ids.indexOf(Number(over.id))))
  }
  const tiles = resources.map((resource) => (
    <Tile key={resource.id} resource={resource} editable={gallery.can.edit} onOpen={onOpen} onEdit={onEdit} onDelete={onDelete} />
  ))
  const list = (
    <Box component="ul" aria-label={t('gallery.title')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, listStyle: 'none', m: 0, p: 0 }}>
      {tiles}
    </Box>
  )
  if (!gallery.can.edit) return list
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={dropped}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('gallery.move.instructions') } }}
    >
      <SortableContext items={resources.map((resource) => resource.id)} strategy={rectSortingStrategy}>
        {list}
      </SortableContext>
    </DndContext>
  )
}

interface TileProps {
  resource: Resource
  editable: boolean
  onOpen: (resource: Resource) => void
  onEdit: (resource: Resource) => void
  onDelete: (resource: Resource) => void
}

function Tile({ resource, editable, onOpen, onEdit, onDelete }: TileProps) {
  const { t } = useTranslation()
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: resource.id,
    disabled: !editable,
  })
  const short = shortName(resource.name)
  const label = resource.resourceType === 'link' ? t('gallery.openLink', { name: resource.name }) : t('gallery.open', { name: resource.name })
  const face = (
    <>
      <Preview resource={resource} />
      <Typography variant="body2" component="span" aria-hidden sx={{ display: 'block', mt: 0.5, width: THUMBNAIL_WIDTH, textAlign: 'center' }}>
        {short}
      </Typography>
      {/* The whole name, where the visible one may be cut. */}
      <span style={visuallyHidden}>{label}</span>
    </>
  )
  const faceSx = { display: 'block', borderRadius: 1, textAlign: 'left', color: 'text.primary', textDecoration: 'none' }
  return (
    <Box
      component="li"
      ref={setNodeRef}
      data-dragging={isDragging || undefined}
      // The tile being moved is lifted and outlined rather than faded: its name keeps its contrast.
      sx={{
        transform: CSS.Transform.toString(transform),
        transition,
        zIndex: isDragging ? 1 : 'auto',
        position: 'relative',
        borderRadius: 1,
        bgcolor: isDragging ? 'background.paper' : undefined,
        boxShadow: isDragging ? 6 : undefined,
        outline: isDragging ? (theme) => `2px dashed ${theme.palette.primary.main}` : undefined,
        outlineOffset: 2,
      }}
    >
      <Tooltip title={resource.name} describeChild>
        {resource.resourceType === 'link' ? (
          <ButtonBase component="a" href={resource.link} target="_blank" rel="noopener noreferrer" sx={faceSx}>
            {face}
          </ButtonBase>
        ) : (
          <ButtonBase onClick={() => onOpen(resource)} sx={faceSx}>
            {face}
          </ButtonBase>
        )}
      </Tooltip>
      {editable && (
        <Stack direction="row" sx={{ justifyContent: 'center' }}>
          <IconButton size="small" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={t('gallery.move.label', { name: resource.name })} sx={{ cursor: 'grab' }}>
            <DragIndicator fontSize="small" />
          </IconButton>
          <IconButton size="small" aria-label={t('gallery.edit', { name: resource.name })} onClick={() => onEdit(resource)}>
            <EditOutlined fontSize="small" />
          </IconButton>
          <IconButton size="small" aria-label={t('gallery.delete', { name: resource.name })} onClick={() => onDelete(resource)}>
            <DeleteOutline fontSize="small" />
          </IconButton>
        </Stack>
      )}
    </Box>
  )
}

/** The 160 × 100 face of a resource: an image's thumbnail, an icon for the others. */
function Preview({ resource }: { resource: Resource }) {
  const { data: thumbnail } = useQuery(storedFileQuery(resource, 'thumbnail'))
  return (
    <Box
      component="span"
      sx={{
        width: THUMBNAIL_WIDTH,
        height: THUMBNAIL_HEIGHT,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'grey.100',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        overflow: 'hidden',
      }}
    >
      {thumbnail ? (
        <Box component="img" src={thumbnail} alt="" sx={{ maxWidth: THUMBNAIL_WIDTH, maxHeight: THUMBNAIL_HEIGHT }} />
      ) : (
        <ResourceIcon type={resource.resourceType} sx={{ fontSize: 48, color: 'primary.main' }} />
      )}
    </Box>
  )
}
