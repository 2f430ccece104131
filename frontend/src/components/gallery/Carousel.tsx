import ChevronLeft from '@mui/icons-material/ChevronLeft'
import ChevronRight from '@mui/icons-material/ChevronRight'
import Close from '@mui/icons-material/Close'
import Download from '@mui/icons-material/Download'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import CircularProgress from '@mui/material/CircularProgress'
import Dialog from '@mui/material/Dialog'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import IconButton from '@mui/material/IconButton'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type KeyboardEvent, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { type Resource, storedFileQuery } from './api'
import { ResourceIcon } from './ResourceIcon'
import { carouselHeight, youtubeEmbedUrl } from './rules'

function useWindowHeight(): number {
  const [height, setHeight] = useState(window.innerHeight)
  useEffect(() => {
    const resized = () => setHeight(window.innerHeight)
    window.addEventListener('resize', resized)
    return () => window.removeEventListener('resize', resized)
  }, [])
  return height
}

/** The gallery's images, pdfs, files and videos one at a time, at 90 % of the window's height (85 % on a
 * window of 700 px or less); the arrows, or the keyboard's, go from one to the next. */
export function Carousel({ resources, start, onClose }: { resources: Resource[]; start: number; onClose: () => void }) {
  const { t } = useTranslation()
  const [index, setIndex] = useState(start)
  const height = carouselHeight(useWindowHeight())
  const resource = resources[index]
  if (!resource) return null
  const step = (by: number) => setIndex((current) => (current + by + resources.length) % resources.length)
  const keys = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft') step(-1)
    if (event.key === 'ArrowRight') step(1)
  }
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="lg"
      onKeyDown={keys}
      aria-labelledby="carousel-title"
      slotProps={{ paper: { sx: { height, maxHeight: height }, 'data-testid': 'carousel' } as object }}
    >
      <DialogTitle id="carousel-title" component="div" sx={{ display: 'flex', alignItems: 'center', gap: 1, pr: 1 }}>
        <ResourceIcon type={resource.resourceType} color="primary" />
        <Typography variant="h6" component="h2" noWrap sx={{ flexGrow: 1 }}>
          {resource.name}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
          {t('gallery.carousel.position', { index: index + 1, count: resources.length })}
        </Typography>
        <IconButton aria-label={t('actions.close')} onClick={onClose}>
          <Close />
        </IconButton>
      </DialogTitle>
      <DialogContent sx={{ display: 'flex', alignItems: 'stretch', gap: 1, px: 1, pb: 2, overflow: 'hidden' }}>
        <IconButton aria-label={t('gallery.carousel.previous')} onClick={() => step(-1)} disabled={resources.length < 2} sx={{ alignSelf: 'center' }}>
          <ChevronLeft fontSize="large" />
        </IconButton>
        <Stack sx={{ flexGrow: 1, minWidth: 0, minHeight: 0 }}>
          <Box sx={{ flexGrow: 1, minHeight: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            <Shown key={resource.id} resource={resource} />
          </Box>
          {resource.comment && (
            <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-line', mt: 1, maxHeight: 72, overflow: 'auto' }}>
              {resource.comment}
            </Typography>
          )}
        </Stack>
        <IconButton aria-label={t('gallery.carousel.next')} onClick={() => step(1)} disabled={resources.length < 2} sx={{ alignSelf: 'center' }}>
          <ChevronRight fontSize="large" />
        </IconButton>
      </DialogContent>
    </Dialog>
  )
}

function Shown({ resource }: { resource: Resource }) {
  const { t } = useTranslation()
  const stored = useQuery({ ...storedFileQuery(resource, 'file'), enabled: resource.resourceType === 'image' || resource.resourceType === 'pdf' })
  const fill = { width: '100%', height: '100%', border: 0 }
  switch (resource.resourceType) {
    case 'youtube':
      return (
        <Box
          component="iframe"
          title={resource.name}
          src={youtubeEmbedUrl(resource.link)}
          allow="accelerometer; encrypted-media; gyroscope; picture-in-picture"
          allowFullScreen
          sx={fill}
        />
      )
    case 'image':
    case 'pdf':
      if (stored.error) return <Alert severity="error">{t('gallery.carousel.loadError')}</Alert>
      if (!stored.data) return <CircularProgress aria-label={t('gallery.carousel.loading')} />
      return resource.resourceType === 'image' ? (
        <Box component="img" src={stored.data} alt={resource.name} sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />
      ) : (
        <Box component="iframe" title={resource.name} src={stored.data} sx={fill} />
      )
    default:
      return <FileDownload resource={resource} />
  }
}

/** A file the browser does not show: offered for download under its own name. */
function FileDownload({ resource }: { resource: Resource }) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const [pending, setPending] = useState(false)
  const download = async () => {
    setPending(true)
    try {
      const link = document.createElement('a')
      link.href = await queryClient.fetchQuery(storedFileQuery(resource, 'file'))
      link.download = resource.link
      link.click()
    } finally {
      setPending(false)
    }
  }
  return (
    <Stack spacing={2} sx={{ alignItems: 'center' }}>
      <ResourceIcon type={resource.resourceType} sx={{ fontSize: 96, color: 'primary.main' }} />
      <Typography>{t('gallery.carousel.notDisplayable')}</Typography>
      <Button variant="contained" startIcon={<Download />} loading={pending} onClick={() => void download()}>
        {t('gallery.carousel.download', { name: resource.link })}
      </Button>
    </Stack>
  )
}
