import Block from '@mui/icons-material/Block'
import Draw from '@mui/icons-material/DrawOutlined'
import ExpandMore from '@mui/icons-material/ExpandMore'
import Grade from '@mui/icons-material/GradeOutlined'
import PlayArrow from '@mui/icons-material/PlayArrow'
import Accordion from '@mui/material/Accordion'
import AccordionDetails from '@mui/material/AccordionDetails'
import AccordionSummary from '@mui/material/AccordionSummary'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Link from '@mui/material/Link'
import Rating from '@mui/material/Rating'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { trainingModulePath } from '../../lib/paths'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { SignatureList } from '../../components/signatures/SignatureList'
import { PeopleNames } from '../../components/people/PeopleNames'
import { formatDate, formatDateTime } from '../../lib/dates'
import { type ModuleCall, moduleCalls, signModule, usePathAction } from './actions'
import type { AssignedModule, Grading, HistoryEntry, Path } from './api'
import { Completion } from '../../components/Completion'
import { GradeDialog } from './GradeDialog'
import { PathHistory } from './PathHistory'
import { ModuleStatusChip } from './PathSteps'
import { ResultList } from './ResultList'
import { SignDialog } from './SignDialog'
import { formatGrade } from './viewTexts'

interface ModulePanelProps {
  path: Path
  module: AssignedModule
  /** The module's own page is offered to those who manage training modules (perm_TrainingManagement). */
  linkToModule: boolean
  history: HistoryEntry[]
  onNotice: (message: string) => void
}

/**
 * One assigned module of the path, as an expandable panel: in its summary the name, status, completion
 * and grade; open, its referents and dates, its elements and results, its grading and earlier ones, the
 * learner's sign-off and signatures, its history, and the actions `can` allows (start now, disable,
 * grade, sign).
 */
export function ModulePanel({ path, module, linkToModule, history, onNotice }: ModulePanelProps) {
  const { t, i18n } = useTranslation()
  const summaryId = `path-module-${module.index}`
  const name = module.module.name
  const showGrade = path.can.seeGrading && module.grading !== null
  return (
    <Accordion disableGutters variant="outlined" slotProps={{ transition: { unmountOnExit: true } }} data-module-index={module.index}>
      <AccordionSummary expandIcon={<ExpandMore />} id={summaryId} aria-controls={`${summaryId}-content`}>
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 1.5, rowGap: 0.5, minWidth: 0, width: '100%', pr: 1 }}>
          <Typography component="span" sx={{ fontWeight: 600, overflowWrap: 'anywhere', minWidth: 0 }}>
            {name}
          </Typography>
          <ModuleStatusChip status={module.status} />
          {showGrade && module.grading && <GradeChip grading={module.grading} />}
          <Box sx={{ flex: '1 1 8rem', minWidth: 96, maxWidth: 220, ml: 'auto' }}>
            <Completion of={module} label={t('trainingPath.module.completionOf', { name })} />
          </Box>
        </Stack>
      </AccordionSummary>
      <AccordionDetails id={`${summaryId}-content`}>
        <Stack spacing={2.5}>
          <Facts>
            {fact(
              t('trainingPath.module.module'),
              linkToModule ? (
                <Link component={RouterLink} to={trainingModulePath(module.module.id)} underline="hover" sx={{ overflowWrap: 'anywhere' }}>
                  {name}
                </Link>
              ) : (
                name
              ),
            )}
            {fact(t('trainingPath.module.referents'), <PeopleNames people={module.referents} inactive={path.inactivePeople} empty={t('trainingPath.nobody')} />)}
            {fact(
              t('trainingPath.module.dates'),
              t('trainingPath.period', { start: formatDate(module.startDate, i18n.language), stop: formatDate(module.stopDate, i18n.language) }),
            )}
            {fact(
              t('trainingPath.module.startedAt'),
              module.startedAt ? formatDateTime(module.startedAt, i18n.language) : t('trainingPath.module.notStartedYet'),
            )}
            {fact(t('trainingPath.module.items'), t('trainingPath.itemsDone', { done: module.doneItems, total: module.totalItems }))}
          </Facts>
          <Part title={t('trainingPath.module.elements')} name={name}>
            <ResultList pathId={path.id} module={module} />
          </Part>
          {path.can.seeGrading && <GradingBlock module={module} name={name} />}
          <Part title={t('trainingPath.module.signatures')} name={name}>
            {module.signature && <SignOffView signOff={module.signature} />}
            <SignatureList signatures={module.signatures} />
          </Part>
          <Part title={t('trainingPath.module.history')} name={name}>
            <PathHistory entries={history} inactive={path.inactivePeople} label={t('trainingPath.module.historyOf', { name })} />
          </Part>
          <ModuleActions path={path} module={module} onNotice={onNotice} />
        </Stack>
      </AccordionDetails>
    </Accordion>
  )
}

function Facts({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' }, gap: 1.5 }}>{children}</Box>
  )
}

function fact(label: string, value: ReactNode) {
  return (
    <Box sx={{ minWidth: 0 }}>
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
}

/** A part of the module's panel: a landmark named by its title and the module's name (each module has the same parts). */
function Part({ title, name, children }: { title: string; name: string; children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <Box component="section" aria-label={t('trainingPath.module.partOf', { part: title, name })}>
      <Typography variant="subtitle2" component="h4" sx={{ fontWeight: 600, mb: 0.75 }}>
        {title}
      </Typography>
      {children}
    </Box>
  )
}

function GradeChip({ grading }: { grading: Grading }) {
  const { t, i18n } = useTranslation()
  return (
    <Chip
      size="small"
      color={grading.isSuccess ? 'success' : 'error'}
      label={t('trainingPath.outOfTen', { value: formatGrade(grading.grade, i18n.language) })}
    />
  )
}

/** The current grading (grade, passed or not, comment, referent, validity) and the earlier ones. */
function GradingBlock({ module, name }: { module: AssignedModule; name: string }) {
  const { t, i18n } = useTranslation()
  const current = module.grading
  const earlier = module.gradings.slice(0, -1).reverse()
  return (
    <Part title={t('trainingPath.module.grading')} name={name}>
      {current ? <GradingView grading={current} /> : <Typography variant="body2" color="text.secondary">{t('trainingPath.module.notGraded')}</Typography>}
      {earlier.length > 0 && (
        <Box sx={{ mt: 1.5 }}>
          <Typography variant="body2" component="h5" sx={{ fontWeight: 600 }}>
            {t('trainingPath.module.earlierGradings')}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {earlier.map((grading) => (
              <Typography component="li" variant="body2" key={grading.date} sx={{ overflowWrap: 'anywhere' }}>
                {t('trainingPath.module.earlierGrading', {
                  grade: t('trainingPath.outOfTen', { value: formatGrade(grading.grade, i18n.language) }),
                  date: formatDateTime(grading.date, i18n.language),
                  referent: grading.referent?.name ?? t('trainingPath.nobody'),
                })}
                {grading.comment && ` · ${grading.comment}`}
              </Typography>
            ))}
          </Box>
        </Box>
      )}
    </Part>
  )
}

function GradingView({ grading }: { grading: Grading }) {
  const { t, i18n } = useTranslation()
  return (
    <Stack spacing={0.5}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography sx={{ fontWeight: 600 }}>{t('trainingPath.outOfTen', { value: formatGrade(grading.grade, i18n.language) })}</Typography>
        <Chip
          size="small"
          variant="outlined"
          color={grading.isSuccess ? 'success' : 'error'}
          label={t(grading.isSuccess ? 'trainingPath.module.success' : 'trainingPath.module.failure')}
        />
      </Stack>
      <Typography variant="body2" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {grading.comment}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('trainingPath.module.gradedBy', { referent: grading.referent?.name ?? t('trainingPath.nobody'), date: formatDateTime(grading.date, i18n.language) })}
      </Typography>
      {grading.isSuccess && (
        <Typography variant="body2" color="text.secondary">
          {grading.validUntil
            ? t('trainingPath.module.validUntil', { date: formatDate(grading.validUntil, i18n.language) })
            : t('trainingPath.module.permanent')}
        </Typography>
      )}
    </Stack>
  )
}

/** The learner's sign-off: satisfaction in stars, and the comment. */
export function SignOffView({ signOff }: { signOff: { comment: string; satisfaction: number; date: string } }) {
  const { t, i18n } = useTranslation()
  const stars = t('trainingPath.signDialog.stars', { count: signOff.satisfaction })
  return (
    <Stack spacing={0.5} sx={{ mb: 1 }}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary">
          {t('trainingPath.signDialog.satisfaction')}
        </Typography>
        <Rating value={signOff.satisfaction} max={5} readOnly size="small" aria-label={stars} />
        <Typography variant="body2" color="text.secondary">
          {formatDateTime(signOff.date, i18n.language)}
        </Typography>
      </Stack>
      {signOff.comment && (
        <Typography variant="body2" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          {signOff.comment}
        </Typography>
      )}
    </Stack>
  )
}

type OpenDialog = 'disable' | 'grade' | 'sign'

function ModuleActions({ path, module, onNotice }: { path: Path; module: AssignedModule; onNotice: (message: string) => void }) {
  const { t } = useTranslation()
  const [dialog, setDialog] = useState<OpenDialog>()
  const action = usePathAction(path.id, (call: ModuleCall) => moduleCalls[call](path.id, module.index))
  const name = module.module.name
  const run = (call: ModuleCall) =>
    action.mutate(call, {
      onSuccess: () => onNotice(t(`trainingPath.module.${call}Done`, { name })),
      onSettled: () => setDialog(undefined),
    })
  const { can } = module
  if (!can.start && !can.disable && !can.grade && !can.sign) return null
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} role="group" aria-label={t('trainingPath.module.actions', { name })}>
      {can.start && (
        <Button variant="contained" startIcon={<PlayArrow />} loading={action.isPending && action.variables === 'startNow'} disabled={action.isPending} onClick={() => run('startNow')}>
          {t('trainingPath.module.startNow')}
        </Button>
      )}
      {can.grade && (
        <Button variant="contained" startIcon={<Grade />} onClick={() => setDialog('grade')}>
          {t(module.grading ? 'trainingPath.module.changeGrade' : 'trainingPath.module.grade')}
        </Button>
      )}
      {can.sign && (
        <Button variant="contained" startIcon={<Draw />} onClick={() => setDialog('sign')}>
          {t('trainingPath.module.sign')}
        </Button>
      )}
      {can.disable && (
        <Button variant="outlined" color="error" startIcon={<Block />} disabled={action.isPending} onClick={() => setDialog('disable')}>
          {t('trainingPath.module.disable')}
        </Button>
      )}
      {dialog === 'disable' && (
        <ConfirmDialog
          title={t('trainingPath.module.disableTitle')}
          message={t('trainingPath.module.disableMessage', { name })}
          confirmLabel={t('trainingPath.module.disable')}
          pending={action.isPending}
          onConfirm={() => run('disable')}
          onClose={() => setDialog(undefined)}
        />
      )}
      {dialog === 'grade' && (
        <GradeDialog
          pathId={path.id}
          version={path.version}
          module={module}
          onGraded={() => {
            setDialog(undefined)
            onNotice(t('trainingPath.module.gradeDone', { name }))
          }}
          onClose={() => setDialog(undefined)}
        />
      )}
      {dialog === 'sign' && (
        <SignDialog
          pathId={path.id}
          title={t('trainingPath.module.signTitle', { name })}
          meaning={t('trainingPath.module.signMeaning')}
          sign={(body) => signModule(path.id, module.index, body)}
          onSigned={() => {
            setDialog(undefined)
            onNotice(t('trainingPath.signDone'))
          }}
          onClose={() => setDialog(undefined)}
        />
      )}
    </Stack>
  )
}
