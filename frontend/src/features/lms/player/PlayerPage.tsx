import ArrowBack from '@mui/icons-material/ArrowBack'
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined'
import HighlightOffOutlined from '@mui/icons-material/HighlightOffOutlined'
import NavigateBefore from '@mui/icons-material/NavigateBefore'
import NavigateNext from '@mui/icons-material/NavigateNext'
import OpenInNew from '@mui/icons-material/OpenInNew'
import PauseCircleOutlined from '@mui/icons-material/PauseCircleOutlined'
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked'
import Replay from '@mui/icons-material/Replay'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Grid from '@mui/material/Grid'
import Link from '@mui/material/Link'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import ListSubheader from '@mui/material/ListSubheader'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useParams, useSearchParams } from 'react-router'
import { isApiError } from '../../../api/errors'
import { queryKeys } from '../../../api/queryKeys'
import { courseTreeQuery } from '../../../components/courses/api'
import { Loading } from '../../../components/Loading'
import { PageHeader } from '../../../components/PageHeader'
import { Section } from '../../../components/Section'
import { usePageTitle } from '../../../lib/pageTitle'
import { LMS_PATH } from '../../../lib/paths'
import { formatGrade } from '../grades'
import { courseProgressQuery, unitLaunchQuery } from './api'
import { afterTermination, canChoose, firstUnit, neighbour, requestedTarget, runtimeMessage, type TocUnit, type UnitProgress, type UnitStatus, unitsOf } from './flow'

/**
 * What the SCO's frame may do: its scripts and forms, dialogs and pop-ups, within its own origin (the
 * content origin, not Spot's: docs/learning-platform.md, "Security choices"). The server's sandbox says
 * the same; on Spot's own origin it keeps the SCO in an opaque origin.
 */
const SANDBOX = 'allow-scripts allow-forms allow-same-origin allow-popups allow-modals'

/** A unit Spot serves (under its launch's key, on the content origin or Spot's): framed. An asset elsewhere is opened in a tab of its own. */
const servedBySpot = (url: string) => new URL(url, window.location.href).pathname.startsWith('/backend/api/v2/lms/play/')

const STATUS_ICONS = {
  notAttempted: RadioButtonUnchecked,
  incomplete: PauseCircleOutlined,
  completed: CheckCircleOutlined,
  passed: CheckCircleOutlined,
  failed: HighlightOffOutlined,
} as const

const MODES = ['Browse', 'Review'] as const

/**
 * The SCORM player (/lms/courses/:courseId/player?item=…&mode=…): the course's table of contents with each
 * unit's status, and the chosen unit in a frame, with Previous and Next where its block allows flow and
 * the table of contents where it allows choice. Without `item`, it opens the unit left suspended, else
 * the first not done. The SCO's runtime tells it of commits (the statuses are read again) and of its end
 * (its navigation request is followed: continue, previous, or the unit a choice names). A unit the
 * learner opens from the player (contents, Previous, Next) opens once the runtime has let the current SCO
 * go and its last commit is read (`leaving`).
 */
export function PlayerPage() {
  const { t } = useTranslation()
  const courseId = Number(useParams().courseId)
  const [search, setSearch] = useSearchParams()
  const asked = search.get('item') === null ? undefined : Number(search.get('item'))
  // The mode a module element asked for its unit (Browse or Review: nothing recorded); another unit opens Normal.
  const mode = MODES.find((known) => known === search.get('mode'))
  const { data: root, error: treeError } = useQuery(courseTreeQuery(courseId))
  const { data: progress, error: progressError } = useQuery(courseProgressQuery(courseId))
  usePageTitle(root ? t('lms.player.pageTitle', { title: root.name }) : t('lms.pageTitle'))

  const units = useMemo(() => (root ? unitsOf(root) : []), [root])
  const byItem = useMemo(() => new Map<number, UnitProgress>(progress?.units.map((unit) => [unit.itemId, unit])), [progress])
  // The unit opened first is decided once, from the progress first read: a commit must not move the learner.
  const [startId, setStartId] = useState<number>()
  if (startId === undefined && root && progress) {
    const first = firstUnit(units, byItem, asked)
    if (first !== undefined) setStartId(first)
  }
  const currentId = asked ?? startId
  // The unit the learner asked for while the current SCO is let go.
  const [leaving, setLeaving] = useState<number>()
  const queryClient = useQueryClient()

  const error = treeError ?? progressError
  if (error) {
    return <Alert severity="warning">{isApiError(error, 404) ? t('codes.lmsElementNotFound') : t('codes.unexpectedServerError')}</Alert>
  }
  if (!root || !progress) return <Loading />

  const open = (itemId: number) => setSearch({ item: String(itemId) }, { replace: true })
  const choose = (itemId: number) => (itemId === currentId ? undefined : setLeaving(itemId))
  const left = async (itemId: number) => {
    await queryClient.invalidateQueries({ queryKey: courseProgressQuery(courseId).queryKey })
    setLeaving(undefined)
    open(itemId)
  }
  const back = (
    <Button component={RouterLink} to={LMS_PATH} startIcon={<ArrowBack />}>
      {t('lms.player.back')}
    </Button>
  )
  if (progress.standard === 'cmi5') {
    return (
      <>
        <PageHeader title={root.name} actions={back} />
        <Alert severity="info">
          {t('lms.player.cmi5')}{' '}
          <Link component={RouterLink} to={LMS_PATH}>
            {t('lms.player.toCatalogue')}
          </Link>
        </Alert>
      </>
    )
  }
  const current = units.find((unit) => unit.leaf.id === currentId)
  return (
    <>
      <PageHeader title={root.name} actions={back} />
      {units.length === 0 ? (
        <Typography color="text.secondary">{t('courses.tree.empty')}</Typography>
      ) : (
        <Grid container spacing={2.5}>
          <Grid size={{ xs: 12, md: 4, lg: 3 }} sx={{ minWidth: 0, order: { xs: 2, md: 1 } }}>
            <Contents units={units} progress={byItem} currentId={currentId} onOpen={choose} />
          </Grid>
          <Grid size={{ xs: 12, md: 8, lg: 9 }} sx={{ minWidth: 0, order: { xs: 1, md: 2 } }}>
            {current && (
              <Stage
                key={current.leaf.id}
                courseId={courseId}
                unit={current}
                units={units}
                progress={byItem}
                onOpen={open}
                onChoose={choose}
                leaving={leaving}
                onLeft={left}
                mode={current.leaf.id === asked ? mode : undefined}
              />
            )}
          </Grid>
        </Grid>
      )}
    </>
  )
}

function statusText(t: (key: string, options?: Record<string, unknown>) => string, language: string, unit: UnitProgress | undefined): string {
  const status: UnitStatus = unit?.status ?? 'notAttempted'
  const parts = [t(`lms.player.status.${status}`)]
  if (unit?.grade != null) parts.push(t('lms.player.grade', { grade: formatGrade(unit.grade, language) }))
  if (unit?.resumable) parts.push(t('lms.player.resumable'))
  return parts.join(' · ')
}

/** The table of contents: the units under their blocks, each with its status; those its block does not let be chosen are shown, not offered. */
function Contents({ units, progress, currentId, onOpen }: { units: TocUnit[]; progress: Map<number, UnitProgress>; currentId: number | undefined; onOpen: (itemId: number) => void }) {
  const { t, i18n } = useTranslation()
  const done = units.filter((unit) => ['completed', 'passed'].includes(progress.get(unit.leaf.id)?.status ?? '')).length
  return (
    <Section title={t('lms.player.contents')} action={<Typography variant="body2" color="text.secondary">{t('lms.player.done', { done, total: units.length })}</Typography>}>
      <List dense disablePadding sx={{ maxHeight: { md: 'calc(100dvh - 250px)' }, overflowY: { md: 'auto' } }}>
        {units.flatMap((unit, at) => {
          const rows = []
          if (unit.block !== undefined && unit.block !== units[at - 1]?.block) {
            rows.push(
              <ListSubheader key={`block-${unit.leaf.id}`} disableSticky sx={{ px: 1, lineHeight: 2.5, bgcolor: 'transparent' }}>
                {unit.block}
              </ListSubheader>,
            )
          }
          const state = progress.get(unit.leaf.id)
          const Icon = STATUS_ICONS[state?.status ?? 'notAttempted']
          const chosen = unit.leaf.id === currentId
          rows.push(
            <ListItem key={unit.leaf.id} disablePadding>
              <ListItemButton
                selected={chosen}
                aria-current={chosen ? 'step' : undefined}
                disabled={!canChoose(progress, unit.leaf.id, currentId)}
                onClick={() => onOpen(unit.leaf.id)}
                sx={{ borderRadius: 1, alignItems: 'flex-start' }}
              >
                <ListItemIcon sx={{ minWidth: 32, mt: 0.75 }}>
                  <Icon fontSize="small" color={state?.status === 'failed' ? 'error' : state?.status === 'passed' || state?.status === 'completed' ? 'success' : 'action'} aria-hidden />
                </ListItemIcon>
                <ListItemText primary={unit.leaf.name} secondary={statusText(t, i18n.language, state)} slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }} />
              </ListItemButton>
            </ListItem>,
          )
          return rows
        })}
      </List>
    </Section>
  )
}

/** How long the player waits for the runtime to let a SCO go before opening the next unit anyway (a frame that never answers). */
const LEAVE_WAIT_MS = 15_000

/**
 * The chosen unit: its launch in a frame, Previous and Next, and what follows its end. `onOpen` follows
 * the SCO's own navigation (it has ended); `onChoose` is the learner's, which first lets the SCO go:
 * asked with `leaving`, the runtime removes the SCO and answers `left` once its commits are in, then
 * `onLeft` opens the unit.
 */
function Stage({
  courseId,
  unit,
  units,
  progress,
  onOpen,
  onChoose,
  leaving,
  onLeft,
  mode,
}: {
  courseId: number
  unit: TocUnit
  units: TocUnit[]
  progress: Map<number, UnitProgress>
  onOpen: (itemId: number) => void
  onChoose: (itemId: number) => void
  leaving: number | undefined
  onLeft: (itemId: number) => Promise<void>
  mode?: (typeof MODES)[number]
}) {
  const { t, i18n } = useTranslation()
  const queryClient = useQueryClient()
  const [opening, setOpening] = useState(0)
  const [ended, setEnded] = useState<'left' | 'unavailable'>()
  const frame = useRef<HTMLIFrameElement>(null)
  const { data: launch, error } = useQuery(unitLaunchQuery(unit.leaf.id, opening, mode))
  const previous = neighbour(units, progress, unit.leaf.id, -1)
  const next = neighbour(units, progress, unit.leaf.id, 1)

  useEffect(() => {
    if (!launch) return
    const expected = new URL(launch.url).origin
    const listen = (event: MessageEvent) => {
      // From this unit's frame only: on its own origin, or an opaque one where Spot has no content origin.
      if (event.source !== frame.current?.contentWindow) return
      if (event.origin !== expected && !(event.origin === 'null' && expected === window.location.origin)) return
      const message = runtimeMessage(event.data)
      if (!message) return
      void queryClient.invalidateQueries({ queryKey: courseProgressQuery(courseId).queryKey })
      if (message.event === 'committed' || message.event === 'terminated') void queryClient.invalidateQueries({ queryKey: queryKeys.lms.myAttempts })
      if (message.event === 'unavailable') setEnded('unavailable')
      if (leaving !== undefined) {
        if (message.event === 'left') void onLeft(leaving)
        return
      }
      if (message.event === 'terminated') {
        const step = afterTermination(message.navRequest)
        const named = requestedTarget(message.navRequest)
        const chosen = named === undefined ? undefined : [...progress.values()].find((row) => row.identifier === named)?.itemId
        const target = chosen !== undefined && canChoose(progress, chosen, unit.leaf.id) ? chosen : step === undefined ? undefined : step === 1 ? next : previous
        if (target !== undefined) onOpen(target)
        else setEnded('left')
      }
    }
    window.addEventListener('message', listen)
    return () => window.removeEventListener('message', listen)
  }, [launch, courseId, next, previous, onOpen, queryClient, progress, unit.leaf.id, leaving, onLeft])

  // The learner opens another unit: the runtime lets the SCO go; without a SCO in a frame, at once.
  useEffect(() => {
    if (leaving === undefined) return
    const target = frame.current?.contentWindow
    if (!launch || !target || ended) {
      void onLeft(leaving)
      return
    }
    // Any origin: the frame may be opaque (no content origin); the request says nothing of the learner.
    target.postMessage({ source: 'spot-player', event: 'leave' }, '*')
    const anyway = window.setTimeout(() => void onLeft(leaving), LEAVE_WAIT_MS)
    return () => window.clearTimeout(anyway)
    // Asked once per unit the learner chooses.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [leaving])

  const reopen = () => {
    setEnded(undefined)
    setOpening((count) => count + 1)
  }
  return (
    <Paper variant="outlined" component="section" aria-label={unit.leaf.name} sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0 }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          {unit.block && (
            <Typography variant="caption" color="text.secondary" component="p">
              {unit.block}
            </Typography>
          )}
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {unit.leaf.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {statusText(t, i18n.language, progress.get(unit.leaf.id))}
          </Typography>
          {mode && <Typography variant="body2">{t(`lms.player.modes.${mode}`)}</Typography>}
        </Box>
        {(previous !== undefined || next !== undefined) && (
          <Stack direction="row" sx={{ gap: 1 }}>
            <Button variant="outlined" startIcon={<NavigateBefore />} disabled={previous === undefined} onClick={() => previous !== undefined && onChoose(previous)}>
              {t('lms.player.previous')}
            </Button>
            <Button variant="contained" endIcon={<NavigateNext />} disabled={next === undefined} onClick={() => next !== undefined && onChoose(next)}>
              {t('lms.player.next')}
            </Button>
          </Stack>
        )}
      </Stack>
      {error ? (
        <Alert severity="warning">{isApiError(error, 404) ? t('codes.lmsElementNotFound') : t('codes.unexpectedServerError')}</Alert>
      ) : ended ? (
        <Alert
          severity={ended === 'left' ? 'info' : 'warning'}
          action={
            <Button color="inherit" startIcon={<Replay />} onClick={reopen}>
              {t('lms.player.openAgain')}
            </Button>
          }
        >
          {t(ended === 'left' ? 'lms.player.left' : 'lms.player.unavailable')}
        </Alert>
      ) : launch && !servedBySpot(launch.url) ? (
        <Alert
          severity="info"
          action={
            <Button color="inherit" startIcon={<OpenInNew />} href={launch.url} target="_blank" rel="noopener">
              {t('lms.player.openElsewhere')}
            </Button>
          }
        >
          {t('lms.player.elsewhere')}
        </Alert>
      ) : launch ? (
        <Box
          component="iframe"
          key={launch.url}
          ref={frame}
          src={launch.url}
          title={t('lms.player.frame', { name: unit.leaf.name })}
          sandbox={SANDBOX}
          allow="fullscreen"
          sx={{ display: 'block', width: '100%', height: { xs: '75dvh', md: 'calc(100dvh - 230px)' }, minHeight: 420, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'common.white' }}
        />
      ) : (
        <Loading />
      )}
    </Paper>
  )
}
