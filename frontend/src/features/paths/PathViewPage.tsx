import ArrowBack from '@mui/icons-material/ArrowBack'
import Block from '@mui/icons-material/Block'
import ContentCopy from '@mui/icons-material/ContentCopy'
import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import Draw from '@mui/icons-material/DrawOutlined'
import EditOutlined from '@mui/icons-material/EditOutlined'
import PlayArrow from '@mui/icons-material/PlayArrow'
import Refresh from '@mui/icons-material/Refresh'
import TaskAlt from '@mui/icons-material/TaskAlt'
import ThumbUpOutlined from '@mui/icons-material/ThumbUpOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Divider from '@mui/material/Divider'
import Grid from '@mui/material/Grid'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useNavigate, useParams } from 'react-router'
import { whoAmIQuery } from '../../api/queries'
import { createFromTrainingPathPath, editTrainingPathPath, TRAINING_PATHS_PATH, TRAINING_MODULES_PATH } from '../../lib/paths'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { AuditPackButton } from '../../components/downloads/AuditPackButton'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { Notice } from '../../components/Notice'
import { SignatureList } from '../../components/signatures/SignatureList'
import { formatDate, formatDateTime } from '../../lib/dates'
import { usePageTitle } from '../../lib/pageTitle'
import { mayOpen } from '../../lib/routes'
import { idParam } from '../../lib/routeParams'
import { type PathCall, pathCalls, signPath, usePathAction, usePathChanged } from './actions'
import { type Path, pathQueryOptions, useDeletePath, useForgetPath } from './api'
import { ClosePathDialog } from './ClosePathDialog'
import { Completion } from '../../components/Completion'
import { ModulePanel, SignOffView } from './ModulePanel'
import { InactiveMark } from '../../components/people/InactiveMark'
import { PeopleNames } from '../../components/people/PeopleNames'
import { PathHistory } from './PathHistory'
import { PathSteps } from './PathSteps'
import { SignDialog } from './SignDialog'
import { pathStatusLabel } from './status'
import { formatGrade, useDurationText } from './viewTexts'

/** The training path's page (spec 2 §2 Training path list and view): ViewTrainingPath, /training/path/view/:pathId. */
export default function PathViewPage() {
  const pathId = idParam(useParams().pathId)
  // Keyed by id: another path is a fresh page, read again from the server.
  return pathId === undefined ? <NotFoundPage /> : <LoadedPath key={pathId} pathId={pathId} />
}

function LoadedPath({ pathId }: { pathId: number }) {
  const { t } = useTranslation()
  const { data: path, error } = useQuery(pathQueryOptions(pathId))
  usePageTitle(error ? undefined : t('trainingPath.pageTitle'))
  // Spec 2 §8: 404 shows NotFound, 403 goes to Forbidden.
  if (error) return <LoadFailure error={error} />
  if (!path) return <Loading />
  return <PathView path={path} />
}

function PathView({ path }: { path: Path }) {
  const { t } = useTranslation()
  const [notice, setNotice] = useState<string>()
  const { data: user } = useQuery(whoAmIQuery)
  const linkToModules = mayOpen(user, TRAINING_MODULES_PATH)
  const moduleNames = path.assignedModules.map((module) => module.module.name)
  return (
    <>
      <Stack direction="row" sx={{ alignItems: 'center', columnGap: 1.5, rowGap: 1, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, minWidth: 0, overflowWrap: 'anywhere' }}>
          {path.title}
        </Typography>
        {path.reference && (
          <Chip
            size="small"
            variant="outlined"
            label={t('trainingPath.referenceText', { code: path.reference.code, label: path.reference.label })}
            sx={{ maxWidth: '100%' }}
          />
        )}
        <Chip
          size="small"
          color={path.status === 'canceled' ? 'default' : 'primary'}
          variant="outlined"
          label={t(pathStatusLabel(path.status))}
          aria-label={t('trainingPath.statusIs', { status: t(pathStatusLabel(path.status)) })}
        />
      </Stack>
      <Box sx={{ mb: 3 }}>
        <PathSteps status={path.status} />
      </Box>

      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, md: 8 }} sx={{ minWidth: 0 }}>
          <Stack spacing={2.5}>
            <Section title={t('trainingPath.modules', { count: path.assignedModules.length })}>
              <Box>
                {path.assignedModules.map((module) => (
                  <ModulePanel
                    key={module.index}
                    path={path}
                    module={module}
                    linkToModule={linkToModules}
                    history={path.history.filter((entry) => entry.moduleIndex === module.index)}
                    onNotice={setNotice}
                  />
                ))}
              </Box>
            </Section>
            <ClosingSection path={path} />
            <Section title={t('trainingPath.history.title')}>
              <PathHistory
                entries={path.history.filter((entry) => entry.moduleIndex === null || moduleNames[entry.moduleIndex] === undefined)}
                moduleNames={moduleNames}
                inactive={path.inactivePeople}
                label={t('trainingPath.history.title')}
              />
            </Section>
          </Stack>
        </Grid>
        {/* On a phone the details come first: the modules below may be long. */}
        <Grid size={{ xs: 12, md: 4 }} sx={{ minWidth: 0, order: { xs: -1, md: 0 } }}>
          <PathFacts path={path} />
        </Grid>
      </Grid>

      <Divider sx={{ my: 3 }} />
      <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }} role="group" aria-label={t('common.actions')}>
        <Button component={RouterLink} to={TRAINING_PATHS_PATH} startIcon={<ArrowBack />}>
          {t('trainingPath.backToList')}
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        {path.learner && <AuditPackButton userId={path.learner.id} label={t('downloads.learnerAuditPack')} />}
        <PathActions path={path} onNotice={setNotice} />
      </Stack>
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </>
  )
}

/** A titled block of the page, named for assistive technologies by its title. */
function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ px: { xs: 1.5, sm: 2.5 }, py: 2, minWidth: 0 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  )
}

/** Closing and sign-off: the validation (validator, comment, date), the learner's sign-off, every signature. */
function ClosingSection({ path }: { path: Path }) {
  const { t, i18n } = useTranslation()
  const { validation, signature } = path
  return (
    <Section title={t('trainingPath.closing.title')}>
      <Stack spacing={1.5}>
        {validation ? (
          <Box>
            <Typography variant="body2">
              {t('trainingPath.closing.validatedBy', {
                validator: validation.validator?.name ?? t('trainingPath.nobody'),
                date: formatDateTime(validation.date, i18n.language),
              })}
              {validation.validator && path.inactivePeople.includes(validation.validator.id) && <InactiveMark />}
            </Typography>
            {validation.comment && (
              <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                {validation.comment}
              </Typography>
            )}
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('trainingPath.closing.notValidated')}
          </Typography>
        )}
        {signature && (
          <Box>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {t('trainingPath.closing.learnerSignOff')}
            </Typography>
            <SignOffView signOff={signature} />
          </Box>
        )}
        <SignatureList signatures={path.signatures} />
      </Stack>
    </Section>
  )
}

function PathFacts({ path }: { path: Path }) {
  const { t, i18n } = useTranslation()
  const duration = useDurationText()
  const date = (value: string) => formatDate(value, i18n.language)
  const fact = (label: string, value: ReactNode, wide = false) => (
    <Box sx={{ minWidth: 0, gridColumn: wide ? '1 / -1' : undefined }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      {typeof value === 'string' ? (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {value}
        </Typography>
      ) : (
        value
      )}
    </Box>
  )
  const names = (list: { id: number; name: string }[]) => (list.length === 0 ? t('trainingPath.nobody') : list.map((entry) => entry.name).join(', '))
  return (
    <Paper variant="outlined" component="section" aria-label={t('trainingPath.facts')} sx={{ p: { xs: 2, sm: 2.5 } }}>
      {/* Two columns while the details sit above the modules (phone, tablet), one beside them. */}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'minmax(0, 1fr)' }, gap: 1.75 }}>
        {fact(t('trainingPath.learner'), <PeopleNames people={[path.learner]} inactive={path.inactivePeople} empty={t('trainingPath.nobody')} />)}
        {fact(t('trainingPath.dates'), t('trainingPath.period', { start: date(path.startDate), stop: date(path.stopDate) }))}
        {fact(t('trainingPath.completion'), <Completion of={path} label={t('trainingPath.completion')} />, true)}
        {fact(t('trainingPath.estimatedDuration'), duration(path.totalEstimatedDuration))}
        {fact(t('trainingPath.items'), t('trainingPath.itemsDone', { done: path.doneSubModuleItems, total: path.totalSubModuleItems }))}
        {fact(t('trainingPath.assignedModules'), String(path.totalAssignedModules))}
        {path.can.seeGrading &&
          fact(
            t('trainingPath.averageGrade'),
            path.averageGrade === null ? t('trainingPath.notGraded') : t('trainingPath.outOfTen', { value: formatGrade(path.averageGrade, i18n.language) }),
          )}
        {path.can.seeGrading && fact(t('trainingPath.passThreshold'), t('trainingPath.outOfTen', { value: path.passThreshold }))}
        {fact(
          t('trainingPath.acceptance'),
          path.acceptanceDate ? t('trainingPath.acceptedOn', { date: formatDateTime(path.acceptanceDate, i18n.language) }) : t('trainingPath.notAcceptedYet'),
        )}
        {fact(t('trainingPath.creation'), t('trainingPath.createdBy', { user: path.creation.userName, date: formatDateTime(path.creation.date, i18n.language) }))}
        {fact(t('trainingPath.visibleByPersons'), <PeopleNames people={path.visibleByPersons} inactive={path.inactivePeople} empty={t('trainingPath.nobody')} />)}
        {fact(t('trainingPath.visibleByGroups'), names(path.visibleByGroups))}
      </Box>
    </Paper>
  )
}

type Confirmed = 'accept' | 'cancel' | 'delete'
type OpenDialog = Confirmed | 'close' | 'sign'

/**
 * The path's buttons, each as the server's `can` says: reload (the progress computed again), edit,
 * create from, delete, accept, start, close, sign and cancel. Accept, cancel and delete ask first;
 * closing and signing open their dialogs. A refusal goes to the error display and the path is read again.
 */
function PathActions({ path, onNotice }: { path: Path; onNotice: (message: string) => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [dialog, setDialog] = useState<OpenDialog>()
  const action = usePathAction(path.id, (call: PathCall) => pathCalls[call](path.id))
  const { reload } = usePathChanged(path.id)
  const remove = useDeletePath()
  const forget = useForgetPath()
  const { can } = path
  const run = (call: PathCall) =>
    action.mutate(call, {
      onSuccess: () => onNotice(t(`trainingPath.actions.${call}Done`)),
      onSettled: () => setDialog(undefined),
    })
  const pending = (call: PathCall) => action.isPending && action.variables === call
  const close = () => setDialog(undefined)
  return (
    <>
      <Button variant="outlined" startIcon={<Refresh />} loading={pending('reload')} disabled={action.isPending} onClick={() => run('reload')}>
        {t('trainingPath.actions.reload')}
      </Button>
      {can.edit && (
        <Button variant="outlined" component={RouterLink} to={editTrainingPathPath(path.id)} startIcon={<EditOutlined />}>
          {t('actions.edit')}
        </Button>
      )}
      {can.createFrom && (
        <Button variant="outlined" component={RouterLink} to={createFromTrainingPathPath(path.id)} startIcon={<ContentCopy />}>
          {t('trainingPath.actions.createFrom')}
        </Button>
      )}
      {can.accept && (
        <Button variant="contained" startIcon={<ThumbUpOutlined />} disabled={action.isPending} onClick={() => setDialog('accept')}>
          {t('trainingPath.actions.accept')}
        </Button>
      )}
      {can.start && (
        <Button variant="contained" startIcon={<PlayArrow />} loading={pending('start')} disabled={action.isPending} onClick={() => run('start')}>
          {t('trainingPath.actions.start')}
        </Button>
      )}
      {can.validate && (
        <Button variant="contained" startIcon={<TaskAlt />} onClick={() => setDialog('close')}>
          {t('trainingPath.actions.close')}
        </Button>
      )}
      {can.sign && (
        <Button variant="contained" startIcon={<Draw />} onClick={() => setDialog('sign')}>
          {t('trainingPath.actions.sign')}
        </Button>
      )}
      {can.cancel && (
        <Button variant="outlined" color="error" startIcon={<Block />} disabled={action.isPending} onClick={() => setDialog('cancel')}>
          {t('trainingPath.actions.cancel')}
        </Button>
      )}
      {can.delete && (
        <Button variant="outlined" color="error" startIcon={<DeleteOutline />} onClick={() => setDialog('delete')}>
          {t('actions.delete')}
        </Button>
      )}
      {(dialog === 'accept' || dialog === 'cancel') && (
        <ConfirmDialog
          title={t(`trainingPath.confirm.${dialog}Title`)}
          message={t(`trainingPath.confirm.${dialog}Message`, { title: path.title })}
          confirmLabel={t(`trainingPath.actions.${dialog}`)}
          pending={action.isPending}
          onConfirm={() => run(dialog)}
          onClose={close}
        />
      )}
      {dialog === 'delete' && (
        <ConfirmDialog
          title={t('trainingPath.confirm.deleteTitle')}
          message={t('trainingPath.confirm.deleteMessage', { title: path.title })}
          confirmLabel={t('actions.delete')}
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(path.id, {
              onSuccess: async () => {
                await navigate(TRAINING_PATHS_PATH)
                forget(path.id)
              },
              onError: () => void reload(),
              onSettled: close,
            })
          }
          onClose={close}
        />
      )}
      {dialog === 'close' && (
        <ClosePathDialog
          path={path}
          onClosed={() => {
            close()
            onNotice(t('trainingPath.actions.closeDone'))
          }}
          onClose={close}
        />
      )}
      {dialog === 'sign' && (
        <SignDialog
          pathId={path.id}
          title={t('trainingPath.signPathTitle', { title: path.title })}
          meaning={t('trainingPath.signPathMeaning')}
          sign={(body) => signPath(path.id, body)}
          onSigned={() => {
            close()
            onNotice(t('trainingPath.signDone'))
          }}
          onClose={close}
        />
      )}
    </>
  )
}
