import OpenInNew from '@mui/icons-material/OpenInNew'
import PlayCircleOutlined from '@mui/icons-material/PlayCircleOutlined'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { type CourseCard, type CourseLeaf, type CourseNode, courseTreeQuery } from '../../components/courses/api'
import { CourseTree, NodeLabel } from '../../components/courses/CourseTree'
import { launchItem, openBlankTab } from '../../components/courses/launch'
import { formatPassMark } from './grades'
import { lmsPlayerPath } from '../../lib/paths'
import { Section } from '../../components/Section'
import { StatementLogButton } from './StatementLog'
import { WaiveButton } from './WaiveDialog'

/**
 * The chosen course: its tree across the card (long unit names need the width), and below it the
 * resource or quiz picked in it, with its Launch button.
 */
export function CourseContent({ course }: { course: CourseCard }) {
  const { t } = useTranslation()
  const [pickedId, setPickedId] = useState<number | null>(null)
  const { data: root } = useQuery(courseTreeQuery(course.id))
  const picked = root && pickedId !== null ? findLeaf(root, pickedId) : undefined
  return (
    <Section title={t('lms.content.title', { title: course.title })}>
      <Stack spacing={2} sx={{ minWidth: 0 }}>
        <CourseTree courseId={course.id} onPick={(item) => setPickedId(item.id)} pickedId={pickedId} />
        {picked ? (
          // A SCORM course's units open in Spot's player, beside the contents; a cmi5 unit in a tab of its own.
          <LeafPanel key={picked.id} leaf={picked} course={course} />
        ) : (
          <Typography color="text.secondary">{t('lms.content.chooseItem')}</Typography>
        )}
      </Stack>
    </Section>
  )
}

function findLeaf(node: CourseNode, id: number): CourseLeaf | undefined {
  if (node.type !== 'group') return node.id === id ? node : undefined
  for (const child of node.children) {
    const found = findLeaf(child, id)
    if (found) return found
  }
  return undefined
}

/** A unit: what it is, its launch, and what the server lets the reader do with it (the course's `can`). */
function LeafPanel({ leaf, course }: { leaf: CourseLeaf; course: CourseCard }) {
  const { t, i18n } = useTranslation()
  const courseId = course.id
  return (
    <Paper variant="outlined" component="section" aria-label={leaf.name} sx={{ p: 2, minWidth: 0 }}>
      <Stack spacing={1}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          <NodeLabel name={leaf.name} type={leaf.type} />
        </Typography>
        <Typography variant="body2" color={leaf.description ? 'text.primary' : 'text.secondary'} sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          {leaf.description || t('lms.item.noDescription')}
        </Typography>
        {leaf.type === 'quiz' && leaf.masteryScore != null && (
          <Typography variant="body2">{t('lms.item.masteryScore', { score: formatPassMark(leaf.masteryScore, i18n.language) })}</Typography>
        )}
        {course.standard !== 'cmi5' ? (
          <>
            <Box>
              <Button variant="contained" startIcon={<PlayCircleOutlined />} component={RouterLink} to={lmsPlayerPath(courseId, leaf.id)} aria-label={t('lms.player.openName', { name: leaf.name })}>
                {t('lms.player.open')}
              </Button>
            </Box>
            <Typography variant="caption" color="text.secondary">
              {t('lms.player.opensHere')}
            </Typography>
          </>
        ) : (
          <CmiLaunch leaf={leaf} />
        )}
        {course.can.readStatements && <StatementLogButton unit={leaf} />}
        {course.can.waive && <WaiveButton unit={leaf} courseId={courseId} />}
      </Stack>
    </Paper>
  )
}

/** A cmi5 unit's launch, in a new tab opened on the click. */
function CmiLaunch({ leaf }: { leaf: CourseLeaf }) {
  const { t } = useTranslation()
  const launch = useMutation({ mutationFn: launchItem })
  // When the browser refused the tab, the address is offered as a link to follow.
  const [blockedUrl, setBlockedUrl] = useState<string>()
  const start = () => {
    setBlockedUrl(undefined)
    const tab = openBlankTab()
    launch.mutate({ itemId: leaf.id }, {
      onSuccess: ({ url }) => {
        if (tab) tab.location.href = url
        else setBlockedUrl(url)
      },
      onError: () => tab?.close(),
    })
  }
  return (
    <>
      <Box>
        <Button variant="contained" startIcon={<OpenInNew />} loading={launch.isPending} onClick={start} aria-label={t('lms.item.launchName', { name: leaf.name })}>
          {t('lms.item.launch')}
        </Button>
      </Box>
      <Typography variant="caption" color="text.secondary">
        {t('lms.item.opensInNewTab')}
      </Typography>
      {blockedUrl && (
        <Alert severity="info">
          <Link href={blockedUrl} target="_blank" rel="noopener">
            {t('lms.item.launchName', { name: leaf.name })}
          </Link>
        </Alert>
      )}
    </>
  )
}
