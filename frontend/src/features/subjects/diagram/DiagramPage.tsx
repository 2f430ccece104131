import ArrowBack from '@mui/icons-material/ArrowBack'
import CenterFocusStrong from '@mui/icons-material/CenterFocusStrong'
import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import Download from '@mui/icons-material/Download'
import OpenInNew from '@mui/icons-material/OpenInNew'
import SchemaOutlined from '@mui/icons-material/SchemaOutlined'
import UploadFile from '@mui/icons-material/UploadFile'
import ZoomIn from '@mui/icons-material/ZoomIn'
import ZoomOut from '@mui/icons-material/ZoomOut'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Skeleton from '@mui/material/Skeleton'
import Stack from '@mui/material/Stack'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { type ChangeEvent, type ReactNode, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useParams } from 'react-router'
import { type ReactZoomPanPinchContentRef, TransformComponent, TransformWrapper, useControls } from 'react-zoom-pan-pinch'
import { isApiError } from '../../../api/errors'
import { organizationInfoQuery } from '../../../api/queries'
import { subjectPath, v1RedirectionPath } from '../../../lib/paths'
import { ConfirmDialog } from '../../../components/ConfirmDialog'
import { LoadFailure } from '../../../components/LoadFailure'
import { Loading } from '../../../components/Loading'
import { NotFoundPage } from '../../../components/NotFoundPage'
import { Notice } from '../../../components/Notice'
import { useMessage } from '../../../lib/messages'
import { usePageTitle } from '../../../lib/pageTitle'
import { idParam } from '../../../lib/routeParams'
import { type Subject, subjectQuery } from '../api'
import { legacyTargets } from '../legacy'
import { mindMapQuery } from '../mindmap/api'
import type { Diagram, MindMap } from '../mindmap/types'
import { DIAGRAM_MEDIA_TYPES, diagramFileError, diagramFileQuery, useRemoveDiagram, useUploadDiagram } from './api'

/** The /subject/:subjectId/diagram route: the subject's diagram, an image or a PDF. */
export function DiagramPage() {
  const subjectId = idParam(useParams().subjectId)
  return subjectId === undefined ? <NotFoundPage /> : <LoadedDiagram key={subjectId} subjectId={subjectId} />
}

function LoadedDiagram({ subjectId }: { subjectId: number }) {
  const { t } = useTranslation()
  const subject = useQuery(subjectQuery(subjectId))
  const mindMap = useQuery(mindMapQuery(subjectId))
  const error = subject.error ?? mindMap.error
  usePageTitle(error ? undefined : t('subjects.diagram.title'))
  if (error) return <LoadFailure error={error} />
  if (!subject.data || !mindMap.data) return <Loading />
  return <DiagramView subject={subject.data} mindMap={mindMap.data} />
}

function DiagramView({ subject, mindMap }: { subject: Subject; mindMap: MindMap }) {
  const { t } = useTranslation()
  const message = useMessage()
  const upload = useUploadDiagram(subject.id)
  const remove = useRemoveDiagram(subject.id)
  const [refused, setRefused] = useState<string>()
  const [removing, setRemoving] = useState(false)
  const [notice, setNotice] = useState<string>()
  const { diagram, can } = mindMap

  const send = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    // The same file may be chosen again after a refusal.
    event.target.value = ''
    if (!file) return
    const problem = diagramFileError(file)
    setRefused(problem)
    if (problem) return
    upload.mutate(file, { onSuccess: () => setNotice(t('subjects.diagram.uploaded')) })
  }
  const serverProblem = isApiError(upload.error, 400, 413, 415, 422)
    ? (upload.error.errors[0]?.code ?? upload.error.message)
    : undefined
  const problem = refused ?? (upload.isError ? serverProblem : undefined)

  return (
    <>
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}>
        <Button component={RouterLink} to={subjectPath(subject.id)} startIcon={<ArrowBack />}>
          {t('subjects.diagram.backToSubject')}
        </Button>
      </Stack>
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1.5, mb: 2 }}>
        {/* The icon stays beside the heading's first line on a phone; the buttons go below. */}
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1.5, flex: '1 1 20rem', minWidth: 0 }}>
          <SchemaOutlined color="primary" aria-hidden sx={{ flex: 'none' }} />
          <Typography variant="h5" component="h1" sx={{ fontWeight: 600, overflowWrap: 'anywhere', minWidth: 0 }}>
            {t('subjects.diagram.heading', { name: subject.name })}
          </Typography>
        </Stack>
        {can.editDiagram && (
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
            <Button component="label" variant="contained" startIcon={<UploadFile />} loading={upload.isPending}>
              {t(diagram ? 'subjects.diagram.replace' : 'subjects.diagram.upload')}
              <input
                type="file"
                hidden
                accept={DIAGRAM_MEDIA_TYPES.join(',')}
                aria-label={t('subjects.diagram.file')}
                aria-describedby="diagram-file-rule"
                onChange={send}
              />
            </Button>
            {diagram && (
              <Button variant="outlined" color="error" startIcon={<DeleteOutline />} onClick={() => setRemoving(true)}>
                {t('subjects.diagram.remove')}
              </Button>
            )}
          </Stack>
        )}
      </Stack>
      {can.editDiagram && (
        <Typography id="diagram-file-rule" variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('subjects.diagram.fileRule')}
        </Typography>
      )}
      {problem && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {message(problem)}
        </Alert>
      )}

      {diagram ? (
        <DiagramFile subjectId={subject.id} diagram={diagram} />
      ) : subject.hasDiagram ? (
        <KeptByLegacy subject={subject} />
      ) : (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography color="text.secondary">{t(can.editDiagram ? 'subjects.diagram.noneEditable' : 'subjects.diagram.none')}</Typography>
        </Paper>
      )}

      {removing && (
        <ConfirmDialog
          title={t('subjects.diagram.removeTitle')}
          message={t('subjects.diagram.removeMessage')}
          confirmLabel={t('subjects.diagram.remove')}
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(undefined, {
              onSuccess: () => setNotice(t('subjects.diagram.removed')),
              onSettled: () => setRemoving(false),
            })
          }
          onClose={() => setRemoving(false)}
        />
      )}
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </>
  )
}

/** A diagram the legacy application keeps: Spot holds no file of it. */
function KeptByLegacy({ subject }: { subject: Subject }) {
  const { t } = useTranslation()
  const { data: organization } = useQuery(organizationInfoQuery)
  const target = organization?.legacyBaseUrl ? legacyTargets(subject)?.diagram : undefined
  return (
    <Alert
      severity="info"
      action={
        target && (
          <Button color="inherit" size="small" component={RouterLink} to={v1RedirectionPath(target)} startIcon={<OpenInNew />}>
            {t('subjects.diagram.openLegacy')}
          </Button>
        )
      }
    >
      {t('subjects.diagram.keptByLegacy')}
    </Alert>
  )
}

function DiagramFile({ subjectId, diagram }: { subjectId: number; diagram: Diagram }) {
  const { t } = useTranslation()
  const { data: url, isError } = useQuery(diagramFileQuery(subjectId, diagram))
  const pdf = diagram.mediaType === 'application/pdf'
  const transform = useRef<ReactZoomPanPinchContentRef>(null)
  return (
    <Stack spacing={1}>
      <Paper
        variant="outlined"
        sx={{ position: 'relative', overflow: 'hidden', height: { xs: 420, md: 'calc(100vh - 260px)' }, minHeight: 420, bgcolor: 'grey.100' }}
      >
        {isError ? (
          <Typography color="text.secondary" sx={{ p: 4, textAlign: 'center' }}>
            {t('subjects.diagram.fileError')}
          </Typography>
        ) : !url ? (
          <Skeleton variant="rectangular" sx={{ width: '100%', height: '100%' }} role="progressbar" aria-label={t('common.loading')} />
        ) : pdf ? (
          <Box component="object" data={url} type="application/pdf" aria-label={diagram.name} sx={{ width: '100%', height: '100%', border: 0 }}>
            <Typography sx={{ p: 4, textAlign: 'center' }}>{t('subjects.diagram.pdfNotShown')}</Typography>
          </Box>
        ) : (
          <TransformWrapper ref={transform} minScale={MIN_SCALE} maxScale={8} initialScale={1} centerOnInit limitToBounds={false} doubleClick={{ disabled: true }}>
            <ZoomControls />
            <TransformComponent wrapperStyle={{ width: '100%', height: '100%', cursor: 'grab' }}>
              <Box
                component="img"
                src={url}
                alt={diagram.name}
                draggable={false}
                // Once its size is known, the image is fitted to the frame (never enlarged).
                onLoad={() => void transform.current?.fitToView(FIT)}
                sx={{ display: 'block', maxWidth: 'none' }}
              />
            </TransformComponent>
          </TransformWrapper>
        )}
      </Paper>
      {url && (
        <Box>
          <Button component={Link} href={url} download={diagram.name} startIcon={<Download />}>
            {t('subjects.diagram.download', { name: diagram.name })}
          </Button>
        </Box>
      )}
    </Stack>
  )
}

const ZOOM_STEP = 0.5
// A large diagram fits a phone's width; a small one is shown at its own size.
const MIN_SCALE = 0.05
const FIT = { maxScale: 1, animationTime: 0 }

function ZoomControls() {
  const { t } = useTranslation()
  const { zoomIn, zoomOut, fitToView } = useControls()
  const control = (label: string, icon: ReactNode, onClick: () => void) => (
    <Tooltip title={label}>
      <IconButton aria-label={label} onClick={onClick}>
        {icon}
      </IconButton>
    </Tooltip>
  )
  return (
    <Paper elevation={2} sx={{ position: 'absolute', top: 12, right: 12, zIndex: 2, display: 'flex', px: 0.5, borderRadius: 2 }}>
      {control(t('subjects.diagram.zoomOut'), <ZoomOut />, () => zoomOut(ZOOM_STEP))}
      {control(t('subjects.diagram.zoomIn'), <ZoomIn />, () => zoomIn(ZOOM_STEP))}
      {control(t('subjects.diagram.zoomReset'), <CenterFocusStrong />, () => void fitToView({ ...FIT, animationTime: 200 }))}
    </Paper>
  )
}
