import AddLink from '@mui/icons-material/AddLink'
import CheckCircle from '@mui/icons-material/CheckCircle'
import LinkOff from '@mui/icons-material/LinkOff'
import OpenInNew from '@mui/icons-material/OpenInNew'
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import IconButton from '@mui/material/IconButton'
import Link from '@mui/material/Link'
import Stack from '@mui/material/Stack'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useMutation } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { mediationPath } from '../../lib/paths'
import { launchedAddress, launchItem, openBlankTab } from '../../components/courses/launch'
import { mapItemPath } from '../../components/mapTree/links'
import { formatDateTime } from '../../lib/dates'
import { detachMediation, recordOpen, usePathAction } from './actions'
import type { AssignedModule, Result } from './api'
import { MediationAttachDialog } from './MediationAttachDialog'
import { formatGrade } from './viewTexts'

type ResultOf<K extends Result['type']> = Extract<Result, { type: K }>

interface ResultListProps {
  pathId: number
  module: AssignedModule
}

/**
 * The elements of an assigned module with what the learner did of them (spec 2 §2): url and spot
 * elements are links only for the learner once the module is started (opening one from here makes it
 * done); a spot element the user may not read says so; mediations attached, and their picker for the
 * referents; the learning platform's resources and quizzes, launched by the learner.
 */
export function ResultList({ pathId, module }: ResultListProps) {
  const { t } = useTranslation()
  if (module.results.length === 0) {
    return <Typography color="text.secondary">{t('trainingPath.results.none')}</Typography>
  }
  return (
    <Stack component="ol" spacing={1.5} aria-label={t('trainingPath.results.label', { name: module.module.name })} sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {module.results.map((result) => (
        <Box component="li" key={result.index} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', minWidth: 0 }}>
          <DoneMark doneAt={result.doneAt} />
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <ResultView pathId={pathId} module={module} result={result} />
          </Box>
        </Box>
      ))}
    </Stack>
  )
}

/** Done or not at a glance; the text under the element says it in words. */
function DoneMark({ doneAt }: { doneAt: string | null }) {
  return doneAt ? <CheckCircle color="success" sx={{ mt: 0.25 }} aria-hidden /> : <RadioButtonUnchecked color="disabled" sx={{ mt: 0.25 }} aria-hidden />
}

function ResultView({ pathId, module, result }: { pathId: number; module: AssignedModule; result: Result }) {
  switch (result.type) {
    case 'url':
      return <UrlView pathId={pathId} module={module} result={result} />
    case 'spot':
      return <SpotView pathId={pathId} module={module} result={result} />
    case 'mediation':
      return <MediationView pathId={pathId} module={module} result={result} />
    case 'lms':
      return <LmsView module={module} result={result} />
  }
}

/** The element's kind, its line (title, link…), then what was done of it. */
function Frame({ result, children, details }: { result: Result; children: ReactNode; details?: ReactNode }) {
  const { t, i18n } = useTranslation()
  return (
    <>
      <Typography component="div" sx={{ overflowWrap: 'anywhere' }}>
        <Chip size="small" variant="outlined" label={t(`trainingPath.kinds.${result.type}`)} sx={{ mr: 1, verticalAlign: 'baseline' }} />
        {children}
      </Typography>
      {result.description && (
        <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          {result.description}
        </Typography>
      )}
      {details}
      <Typography variant="caption" color="text.secondary" component="div">
        {result.doneAt ? t('trainingPath.results.doneAt', { date: formatDateTime(result.doneAt, i18n.language) }) : t('trainingPath.results.notDone')}
      </Typography>
    </>
  )
}

/** Records that the learner opened a url or spot element from the path (the first time makes it done). */
function useRecordOpen(pathId: number, module: AssignedModule, result: Result) {
  return usePathAction(pathId, () => recordOpen(pathId, module.index, result.index))
}

function UrlView({ pathId, module, result }: { pathId: number; module: AssignedModule; result: ResultOf<'url'> }) {
  const { t } = useTranslation()
  const record = useRecordOpen(pathId, module, result)
  if (!module.can.openElements) {
    return <Frame result={result}>{result.title}</Frame>
  }
  return (
    <Frame result={result}>
      <Link
        href={result.url}
        target="_blank"
        rel="noopener noreferrer"
        underline="hover"
        // The link opens the address in a new tab; the opening is recorded beside it.
        onClick={() => record.mutate(undefined)}
      >
        {result.title}
        <OpenInNew fontSize="inherit" sx={{ ml: 0.5, verticalAlign: 'middle' }} titleAccess={t('trainingPath.results.newTab')} />
      </Link>
    </Frame>
  )
}

function SpotView({ pathId, module, result }: { pathId: number; module: AssignedModule; result: ResultOf<'spot'> }) {
  const { t } = useTranslation()
  const record = useRecordOpen(pathId, module, result)
  if (!result.readable) {
    return (
      <Frame result={result}>
        <Typography component="span" color="text.secondary">
          {t('codes.insufficientRightsToView')}
        </Typography>
      </Frame>
    )
  }
  const type = (
    <Typography component="span" variant="body2" color="text.secondary">
      {' '}({t(`mapTree.types.${result.spotItemType}`)})
    </Typography>
  )
  const details = (
    <>
      {result.context.length > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {result.context.map((entry) => entry.name).join(' › ')}
        </Typography>
      )}
      {result.subjects.length > 0 && (
        <Typography variant="body2">{t('trainingPath.results.subjectsRead', { count: result.subjects.length })}</Typography>
      )}
    </>
  )
  return (
    <Frame result={result} details={details}>
      {module.can.openElements ? (
        <Link component={RouterLink} to={mapItemPath(result.spotItemType, result.spotItemId)} underline="hover" onClick={() => record.mutate(undefined)}>
          {result.title}
        </Link>
      ) : (
        result.title
      )}
      {type}
    </Frame>
  )
}

function MediationView({ pathId, module, result }: { pathId: number; module: AssignedModule; result: ResultOf<'mediation'> }) {
  const { t } = useTranslation()
  const [attaching, setAttaching] = useState(false)
  const detach = usePathAction(pathId, (mediationId: number) => detachMediation(pathId, module.index, result.index, mediationId))
  const manage = module.can.manageMediations
  const details = (
    <Box sx={{ mt: 0.5 }}>
      {result.mediations.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('trainingPath.results.noMediation')}
        </Typography>
      ) : (
        <Stack component="ul" spacing={0.5} aria-label={t('trainingPath.results.attachedMediations')} sx={{ m: 0, pl: 2.5 }}>
          {result.mediations.map((mediation) => (
            <Typography component="li" variant="body2" key={mediation.id} sx={{ overflowWrap: 'anywhere' }}>
              {mediation.readable && mediation.title !== null ? (
                <>
                  <Link component={RouterLink} to={mediationPath(mediation.id)} underline="hover">
                    {mediation.title}
                  </Link>
                  {mediation.status && (
                    <Chip size="small" variant="outlined" label={t(`mediationStatuses.${mediation.status}`)} sx={{ ml: 1 }} />
                  )}
                  {mediation.signedByLearner && (
                    <Chip size="small" color="success" variant="outlined" label={t('trainingPath.results.signedByLearner')} sx={{ ml: 1 }} />
                  )}
                </>
              ) : (
                <Typography component="span" variant="body2" color="text.secondary">
                  {t('codes.insufficientRightsToView')}
                </Typography>
              )}
              {manage && (
                <Tooltip title={t('trainingPath.results.detach')}>
                  <IconButton
                    size="small"
                    aria-label={t('trainingPath.results.detachName', { title: mediation.title ?? String(mediation.id) })}
                    loading={detach.isPending && detach.variables === mediation.id}
                    disabled={detach.isPending}
                    onClick={() => detach.mutate(mediation.id)}
                    sx={{ ml: 0.5 }}
                  >
                    <LinkOff fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            </Typography>
          ))}
        </Stack>
      )}
      {manage && (
        <Button size="small" startIcon={<AddLink />} onClick={() => setAttaching(true)} sx={{ mt: 0.5 }}>
          {t('trainingPath.results.attach')}
        </Button>
      )}
      {attaching && (
        <MediationAttachDialog
          pathId={pathId}
          moduleIndex={module.index}
          resultIndex={result.index}
          elementTitle={result.title}
          attachedIds={result.mediationIds}
          onAttached={() => setAttaching(false)}
          onClose={() => setAttaching(false)}
        />
      )}
    </Box>
  )
  return (
    <Frame result={result} details={details}>
      {result.title}
    </Frame>
  )
}

function LmsView({ module, result }: { module: AssignedModule; result: ResultOf<'lms'> }) {
  const { t, i18n } = useTranslation()
  const launch = useMutation({ mutationFn: launchItem })
  // When the browser refused the tab, the address is offered as a link to follow.
  const [blockedUrl, setBlockedUrl] = useState<string>()
  if (!result.found) {
    return (
      <Frame result={result}>
        <Typography component="span" color="warning.text">
          {t('codes.lmsElementNotFound')}
        </Typography>
      </Frame>
    )
  }
  const itemId = result.lmsItemId
  const start = (id: number) => {
    setBlockedUrl(undefined)
    const tab = openBlankTab()
    launch.mutate({ itemId: id, mode: result.launchMode }, {
      onSuccess: (launched) => {
        const url = launchedAddress(launched, id, result.launchMode)
        if (tab) tab.location.href = url
        else setBlockedUrl(url)
      },
      onError: () => tab?.close(),
    })
  }
  const resourcesDone = result.resources.filter((resource) => resource.doneAt !== null).length
  const details = (
    <Stack spacing={0.5} sx={{ mt: 0.5, alignItems: 'flex-start' }}>
      {result.resources.length > 0 && (
        <Typography variant="body2">{t('trainingPath.results.resourcesDone', { done: resourcesDone, total: result.resources.length })}</Typography>
      )}
      {result.quizes.map((quiz) => (
        <Typography variant="body2" key={quiz.quizId}>
          {quiz.result === null
            ? t('trainingPath.results.quizNotAttempted')
            : t('trainingPath.results.quizResult', { result: t('trainingPath.outOfTen', { value: formatGrade(quiz.result, i18n.language) }) })}
        </Typography>
      ))}
      {result.launchMode !== 'Normal' && <Typography variant="body2">{t(`trainingPath.results.opensIn.${result.launchMode}`)}</Typography>}
      {module.can.openElements && itemId !== null && result.lmsType !== null && (
        <Button
          size="small"
          variant="outlined"
          startIcon={<OpenInNew />}
          loading={launch.isPending}
          onClick={() => start(itemId)}
          aria-label={t('trainingPath.results.launchName', { title: result.title })}
        >
          {t('trainingPath.results.launch')}
        </Button>
      )}
      {blockedUrl && (
        <Alert severity="info">
          <Link href={blockedUrl} target="_blank" rel="noopener">
            {t('trainingPath.results.launchName', { title: result.title })}
          </Link>
        </Alert>
      )}
    </Stack>
  )
  return (
    <Frame result={result} details={details}>
      {result.title}
      {result.lmsType && (
        <Typography component="span" variant="body2" color="text.secondary">
          {' '}({t(`trainingPath.lmsTypes.${result.lmsType}`)})
        </Typography>
      )}
    </Frame>
  )
}
