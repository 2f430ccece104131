import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined'
import ArrowBack from '@mui/icons-material/ArrowBack'
import VerifiedUser from '@mui/icons-material/VerifiedUser'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Grid from '@mui/material/Grid'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Tab from '@mui/material/Tab'
import Tabs from '@mui/material/Tabs'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useParams, useSearchParams } from 'react-router'
import { isApiError } from '../../../api/errors'
import { subjectMindMapPath, subjectPath } from '../../../lib/paths'
import { LoadFailure } from '../../../components/LoadFailure'
import { Loading } from '../../../components/Loading'
import { MessagePage } from '../../../components/MessagePage'
import { NotFoundPage } from '../../../components/NotFoundPage'
import { usePageTitle } from '../../../lib/pageTitle'
import { idParam } from '../../../lib/routeParams'
import { formatDateTime } from '../../../lib/dates'
import { mindMapQuery } from './api'
import { DifferenceChips } from './DifferenceChips'
import { MindMapCanvas } from './MindMapCanvas'
import { Outline } from './Outline'
import { differenceMarks, NOT_STANDARDIZED, standardizedMindMapQuery } from './standardizedApi'
import type { MindMap, StandardizedMindMap, StandardizedNode } from './types'

/** The /subject/:subjectId/mindmap/standardized route: the copy kept by the last standardization beside the live tree. */
export function StandardizedMindMapPage() {
  const subjectId = idParam(useParams().subjectId)
  return subjectId === undefined ? <NotFoundPage /> : <LoadedComparison key={subjectId} subjectId={subjectId} />
}

function LoadedComparison({ subjectId }: { subjectId: number }) {
  const { t } = useTranslation()
  const live = useQuery(mindMapQuery(subjectId))
  const copy = useQuery(standardizedMindMapQuery(subjectId))
  const notStandardized = isApiError(copy.error, 404) && copy.error.message === NOT_STANDARDIZED
  const error = live.error ?? (notStandardized ? null : copy.error)
  usePageTitle(error ? undefined : t('subjects.standardized.title'))
  if (error) return <LoadFailure error={error} />
  if (notStandardized) return <NotStandardized subjectId={subjectId} />
  if (!live.data || !copy.data) return <Loading />
  return <Comparison live={live.data} copy={copy.data} />
}

function NotStandardized({ subjectId }: { subjectId: number }) {
  const { t } = useTranslation()
  return (
    <MessagePage
      icon={<VerifiedUser color="disabled" sx={{ fontSize: 56 }} />}
      title={t('subjects.standardized.none')}
      detail={t('subjects.standardized.noneDetail')}
      actions={
        <Button variant="contained" component={RouterLink} to={subjectPath(subjectId)} startIcon={<ArrowBack />}>
          {t('subjects.standardized.backToSubject')}
        </Button>
      }
    />
  )
}

type Pane = 'copy' | 'live'

function Comparison({ live, copy }: { live: MindMap; copy: StandardizedMindMap }) {
  const { t, i18n } = useTranslation()
  const [search, setSearch] = useSearchParams()
  const selected = idParam(search.get('node') ?? undefined)
  const [pane, setPane] = useState<Pane>('copy')
  const marks = differenceMarks(copy.differences)
  const liveByCode = new Map(live.nodes.map((node) => [node.code, node]))
  const copyByCode = new Map(copy.nodes.map((node) => [node.code, node]))
  const select = (code: number) => setSearch({ node: String(code) }, { replace: true })
  const date = formatDateTime(copy.standardizedAt, i18n.language)
  const when = copy.standardizedBy
    ? t('subjects.standardized.by', { user: copy.standardizedBy.name, date })
    : t('subjects.standardized.on', { date })

  const paneBox = (which: Pane, title: string, nodes: readonly StandardizedNode[]) => (
    <Grid size={{ xs: 12, md: 6 }} sx={{ display: { xs: pane === which ? 'block' : 'none', md: 'block' } }}>
      <Paper variant="outlined" component="section" id={`pane-${which}`} aria-labelledby={`pane-${which}-title`} sx={{ p: 2, height: '100%' }}>
        <Typography id={`pane-${which}-title`} variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          {title}
        </Typography>
        <Box sx={{ height: { xs: 320, md: 420 }, mb: 1.5, border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}>
          <MindMapCanvas
            readOnly
            label={t('subjects.standardized.canvas', { name: title })}
            nodes={nodes}
            marks={marks}
            selectedCode={selected}
            onSelect={select}
          />
        </Box>
        <Outline label={title} nodes={nodes} marks={marks} selectedCode={selected} onSelect={select} />
      </Paper>
    </Grid>
  )

  return (
    <>
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}>
        <Button component={RouterLink} to={subjectPath(live.subjectId)} startIcon={<ArrowBack />}>
          {t('subjects.standardized.backToSubject')}
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        <Button variant="outlined" component={RouterLink} to={subjectMindMapPath(live.subjectId)} startIcon={<AccountTreeOutlined />}>
          {t('subjects.standardized.openMindMap')}
        </Button>
      </Stack>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
        <VerifiedUser sx={{ color: 'accent.main' }} aria-hidden />
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {t('subjects.standardized.heading', { name: live.subjectName })}
        </Typography>
      </Stack>
      <Paper variant="outlined" component="section" aria-label={t('subjects.standardized.about')} sx={{ p: 2, mb: 2 }}>
        <Typography>{when}</Typography>
        <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 1 }}>
          {t('subjects.standardized.comment')}
        </Typography>
        <Typography variant="body2" sx={{ whiteSpace: 'pre-line' }} color={copy.comment ? 'text.primary' : 'text.secondary'}>
          {copy.comment || t('subjects.standardized.noComment')}
        </Typography>
      </Paper>

      <Tabs
        value={pane}
        onChange={(_event, value: Pane) => setPane(value)}
        aria-label={t('subjects.standardized.panes')}
        variant="fullWidth"
        sx={{ display: { md: 'none' }, mb: 1 }}
      >
        <Tab value="copy" label={t('subjects.standardized.copyPane')} aria-controls="pane-copy" />
        <Tab value="live" label={t('subjects.standardized.livePane')} aria-controls="pane-live" />
      </Tabs>
      <Grid container spacing={2} sx={{ mb: 2 }}>
        {paneBox('copy', t('subjects.standardized.copyPane'), copy.nodes)}
        {paneBox('live', t('subjects.standardized.livePane'), live.nodes)}
      </Grid>

      <Paper variant="outlined" component="section" aria-labelledby="differences-title" sx={{ p: 2 }}>
        <Typography id="differences-title" variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          {t('subjects.standardized.differences', { count: copy.differences.length })}
        </Typography>
        {copy.differences.length === 0 ? (
          <Typography color="text.secondary">{t('subjects.standardized.noDifference')}</Typography>
        ) : (
          <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none' }}>
            {copy.differences.map(({ code, kinds }) => {
              const now = liveByCode.get(code)
              const before = copyByCode.get(code)
              // A removed node is only in the copy: it is selected there.
              const inLive = now !== undefined
              return (
                <Stack component="li" key={code} direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, py: 0.75 }}>
                  <Link
                    component={RouterLink}
                    to={{ search: `?node=${code}` }}
                    replace
                    onClick={() => setPane(inLive ? 'live' : 'copy')}
                    aria-current={selected === code ? 'true' : undefined}
                    sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
                  >
                    {(now ?? before)?.name ?? t('subjects.standardized.node', { code })}
                  </Link>
                  {now && before && now.name !== before.name && (
                    <Typography component="span" variant="body2" color="text.secondary">
                      {t('subjects.standardized.formerName', { name: before.name })}
                    </Typography>
                  )}
                  <DifferenceChips kinds={kinds} />
                </Stack>
              )
            })}
          </Box>
        )}
      </Paper>
    </>
  )
}
