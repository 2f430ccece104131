import ArrowBack from '@mui/icons-material/ArrowBack'
import Block from '@mui/icons-material/Block'
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined'
import ContentCopy from '@mui/icons-material/ContentCopy'
import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import EditOutlined from '@mui/icons-material/EditOutlined'
import OpenInNew from '@mui/icons-material/OpenInNew'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Grid from '@mui/material/Grid'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useNavigate, useParams } from 'react-router'
import { isApiError } from '../../api/errors'
import { createFromTrainingModulePath, editTrainingModulePath, TRAINING_MODULES_PATH } from '../../lib/paths'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { Notice } from '../../components/Notice'
import { ViewFooter } from '../../components/ViewFooter'
import { formatDateTime } from '../../lib/dates'
import { useMessage } from '../../lib/messages'
import { usePageTitle } from '../../lib/pageTitle'
import { idParam } from '../../lib/routeParams'
import { type Module, type ModuleItemOut, moduleQuery, useDeleteModule, useForgetModule, useSetModuleEnabled } from './api'
import { firstLine, useDurationText, usePeriodicityText } from './elementTexts'
import { mapItemPath } from '../../components/mapTree/links'

export function ModuleViewPage() {
  const moduleId = idParam(useParams().moduleId)
  return moduleId === undefined ? <NotFoundPage /> : <LoadedModule key={moduleId} moduleId={moduleId} />
}

function LoadedModule({ moduleId }: { moduleId: number }) {
  const { t } = useTranslation()
  const { data: module, error } = useQuery(moduleQuery(moduleId))
  usePageTitle(error ? undefined : t('modules.view.pageTitle'))
  if (error) return <LoadFailure error={error} />
  if (!module) return <Loading />
  return <ModuleView module={module} />
}

function ModuleView({ module }: { module: Module }) {
  const { t, i18n } = useTranslation()
  const duration = useDurationText()
  const periodicity = usePeriodicityText()
  const [notice, setNotice] = useState<string>()
  const fact = (label: string, value: ReactNode) => (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      {typeof value === 'string' ? <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>{value}</Typography> : value}
    </Box>
  )
  return (
    <>
      <Stack direction="row" sx={{ alignItems: 'center', columnGap: 1.5, rowGap: 1, mb: 3, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, minWidth: 0, overflowWrap: 'anywhere' }}>
          {module.name}
        </Typography>
        <Chip
          size="small"
          variant="outlined"
          color={module.enabled ? 'primary' : 'default'}
          label={t(module.enabled ? 'modules.enabled' : 'modules.disabled')}
        />
      </Stack>
      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, md: 8 }}>
          <Stack spacing={2.5}>
            <Paper variant="outlined" component="section" aria-labelledby="module-goals" sx={{ p: 2.5 }}>
              <Typography id="module-goals" variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
                {t('modules.fields.goals')}
              </Typography>
              <Typography sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{module.goals}</Typography>
            </Paper>
            <Paper variant="outlined" component="section" aria-labelledby="module-elements" sx={{ p: 2.5 }}>
              <Typography id="module-elements" variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
                {t('modules.view.elements', { count: module.moduleItems.length })}
              </Typography>
              <Stack component="ol" spacing={1.25} sx={{ m: 0, pl: 3 }}>
                {module.moduleItems.map((item, index) => (
                  <Box component="li" key={index}>
                    <ElementView item={item} />
                  </Box>
                ))}
              </Stack>
            </Paper>
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <Paper variant="outlined" component="section" aria-label={t('modules.view.facts')} sx={{ p: 2.5 }}>
            <Stack spacing={1.75}>
              {fact(t('modules.fields.moduleType'), t(`modules.types.${module.moduleType}`))}
              {fact(
                t('modules.fields.reference'),
                module.reference ? t('modules.referenceText', { code: module.reference.code, label: module.reference.label }) : t('modules.noReference'),
              )}
              {fact(t('modules.fields.estimatedDuration'), duration(module.estimatedDuration))}
              {fact(t('modules.fields.periodicity'), periodicity(module.periodicity))}
              {fact(t('modules.fields.passThreshold'), t('modules.outOfTen', { value: module.passThreshold }))}
              {fact(t('modules.view.creation'), t('modules.view.createdBy', { user: module.creation.userName, date: formatDateTime(module.creation.date, i18n.language) }))}
              {fact(t('modules.view.usage'), t('modules.view.usedInPaths', { count: module.usage.trainingPath }))}
            </Stack>
          </Paper>
        </Grid>
      </Grid>
      <ModuleFooter module={module} onDone={setNotice} />
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </>
  )
}

/** One element of the module, by kind (spec 2 §2 and §8). */
function ElementView({ item }: { item: ModuleItemOut }) {
  const { t } = useTranslation()
  const kind = (
    <Chip size="small" variant="outlined" label={t(`modules.kinds.${item.type}`)} sx={{ mr: 1, verticalAlign: 'baseline' }} />
  )
  switch (item.type) {
    case 'spot':
      if (!item.readable || item.name == null) {
        return (
          <Typography>
            {kind}
            <Typography component="span" color="text.secondary">
              {t('codes.insufficientRightsToView')}
            </Typography>
          </Typography>
        )
      }
      return (
        <Box>
          <Typography>
            {kind}
            <Link component={RouterLink} to={mapItemPath(item.spotItemType, item.spotItemId)} underline="hover">
              {item.name}
            </Link>{' '}
            <Typography component="span" variant="body2" color="text.secondary">
              ({t(`mapTree.types.${item.spotItemType}`)})
            </Typography>
          </Typography>
          {item.context.length > 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {item.context.map((entry) => entry.name).join(' › ')}
            </Typography>
          )}
        </Box>
      )
    case 'mediation':
      return (
        <Box>
          <Typography sx={{ overflowWrap: 'anywhere' }}>
            {kind}
            {item.title}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {firstLine(item.description)}
          </Typography>
        </Box>
      )
    case 'url':
      return (
        <Typography sx={{ overflowWrap: 'anywhere' }}>
          {kind}
          <Link href={item.url} target="_blank" rel="noopener noreferrer" underline="hover">
            {item.label}
            <OpenInNew fontSize="inherit" sx={{ ml: 0.5, verticalAlign: 'middle' }} titleAccess={t('modules.view.newTab')} />
          </Link>
        </Typography>
      )
    case 'lms':
      return (
        <Typography sx={{ overflowWrap: 'anywhere' }}>
          {kind}
          {item.found && item.name != null ? (
            <>
              {item.name}
              {item.lmsType && (
                <Typography component="span" variant="body2" color="text.secondary">
                  {' '}({t(`modules.lmsTypes.${item.lmsType}`)})
                </Typography>
              )}
              {item.launchMode !== 'Normal' && (
                <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
                  {t(`modules.launchModes.${item.launchMode}`)}
                </Typography>
              )}
            </>
          ) : (
            <Typography component="span" color="warning.dark">
              {t('codes.lmsElementNotFound')}
            </Typography>
          )}
        </Typography>
      )
  }
}

/**
 * The way back to the list, then the actions: edit (refused with the reason once an accepted path uses
 * the module), create from, enable or disable, and delete when no path uses it, with a confirmation;
 * each as the server's `can` says.
 */
function ModuleFooter({ module, onDone }: { module: Module; onDone: (message: string) => void }) {
  const { t } = useTranslation()
  const message = useMessage()
  const navigate = useNavigate()
  const reasonId = useId()
  const [confirming, setConfirming] = useState(false)
  const [refused, setRefused] = useState<string>()
  const setEnabled = useSetModuleEnabled(module.id)
  const remove = useDeleteModule(module.id)
  const forget = useForgetModule()
  const { can } = module
  const editRefused = !can.edit && module.usage.hasAcceptedTrainingPath
  const back = (
    <Button component={RouterLink} to={TRAINING_MODULES_PATH} startIcon={<ArrowBack />}>
      {t('modules.view.backToList')}
    </Button>
  )
  const note = (refused || editRefused) && (
    <>
      {refused && (
        <Alert severity="warning" onClose={() => setRefused(undefined)} sx={{ alignSelf: 'stretch' }}>
          {refused}
        </Alert>
      )}
      {editRefused && (
        <Typography id={reasonId} variant="body2" color="text.secondary" sx={{ textAlign: { sm: 'right' } }}>
          {t('modules.view.editRefused')}
        </Typography>
      )}
    </>
  )
  return (
    <ViewFooter back={back} note={note}>
      <Button
        variant="outlined"
        component={RouterLink}
        to={editTrainingModulePath(module.id)}
        startIcon={<EditOutlined />}
        disabled={!can.edit}
        aria-describedby={editRefused ? reasonId : undefined}
      >
        {t('actions.edit')}
      </Button>
      <Button variant="outlined" component={RouterLink} to={createFromTrainingModulePath(module.id)} startIcon={<ContentCopy />}>
        {t('modules.view.createFrom')}
      </Button>
      {can.setEnabled && (
        <Button
          variant="outlined"
          startIcon={module.enabled ? <Block /> : <CheckCircleOutline />}
          loading={setEnabled.isPending}
          onClick={() => setEnabled.mutate(!module.enabled, { onSuccess: (saved) => onDone(t(saved.enabled ? 'modules.view.enabledDone' : 'modules.view.disabledDone')) })}
        >
          {t(module.enabled ? 'modules.view.disable' : 'modules.view.enable')}
        </Button>
      )}
      {can.delete && (
        <Button variant="outlined" color="error" startIcon={<DeleteOutline />} onClick={() => setConfirming(true)}>
          {t('actions.delete')}
        </Button>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('modules.view.deleteTitle')}
          message={t('modules.view.deleteMessage', { name: module.name })}
          confirmLabel={t('actions.delete')}
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(undefined, {
              onSuccess: async () => {
                await navigate(TRAINING_MODULES_PATH)
                forget(module.id)
              },
              onError: (error) => {
                if (isApiError(error, 409)) setRefused(message(error.message))
              },
              onSettled: () => setConfirming(false),
            })
          }
          onClose={() => setConfirming(false)}
        />
      )}
    </ViewFooter>
  )
}
