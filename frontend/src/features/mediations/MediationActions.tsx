import Block from '@mui/icons-material/Block'
import EditNoteOutlined from '@mui/icons-material/EditNoteOutlined'
import EditOutlined from '@mui/icons-material/EditOutlined'
import Pause from '@mui/icons-material/Pause'
import PlayArrow from '@mui/icons-material/PlayArrow'
import Stop from '@mui/icons-material/Stop'
import TaskAlt from '@mui/icons-material/TaskAlt'
import Undo from '@mui/icons-material/Undo'
import Button from '@mui/material/Button'
import type SvgIcon from '@mui/material/SvgIcon'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { isApiError } from '../../api/errors'
import { editMediationPath, mediationReportPath } from '../../lib/paths'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { type Mediation, type MediationCan, mediationQuery, useChangeMediationStatus } from './api'
import type { MediationStatus } from './status'

/** The status changes of the view, each allowed by its `can` flag, and the status it asks for. */
const TRANSITIONS = [
  { action: 'start', target: 'started', icon: PlayArrow, confirm: false },
  { action: 'pause', target: 'paused', icon: Pause, confirm: false },
  { action: 'resume', target: 'started', icon: PlayArrow, confirm: false },
  { action: 'stop', target: 'stopped', icon: Stop, confirm: true },
  { action: 'validate', target: 'validated', icon: TaskAlt, confirm: false },
  { action: 'invalidate', target: 'stopped', icon: Undo, confirm: true },
  { action: 'cancel', target: 'canceled', icon: Block, confirm: true },
] as const satisfies readonly { action: keyof MediationCan; target: MediationStatus; icon: typeof SvgIcon; confirm: boolean }[]

type Transition = (typeof TRANSITIONS)[number]

interface MediationActionsProps {
  mediation: Mediation
  /** Tells the user a change was made. */
  onDone: (message: string) => void
  /** Tells the user a change was refused because the mediation changed meanwhile. */
  onConflict: (message: string) => void
}

/**
 * The buttons of the actions the server allows (`can`): edit, the status changes and the report.
 * Stop, invalidate and cancel ask first. A status change that another one made impossible meanwhile
 * (409, the current status in the error) reads the mediation again and says so.
 */
export function MediationActions({ mediation, onDone, onConflict }: MediationActionsProps) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const change = useChangeMediationStatus(mediation.id, { handledStatuses: [409] })
  const [confirming, setConfirming] = useState<Transition>()
  const { can } = mediation

  const run = (transition: Transition) =>
    change.mutate(transition.target, {
      onSuccess: () => onDone(t(`mediations.view.actions.${transition.action}Done`)),
      onError: (error) => {
        if (!isApiError(error, 409)) return
        void queryClient.invalidateQueries({ queryKey: mediationQuery(mediation.id).queryKey, exact: true })
        const current = error.errors.find((e) => e.field === 'status')?.code
        onConflict(
          current ? t('mediations.view.conflict', { status: t(`mediationStatuses.${current}`) }) : t('mediations.view.conflictUnknown'),
        )
      },
      onSettled: () => setConfirming(undefined),
    })

  const button = (transition: Transition) => {
    const Icon = transition.icon
    const dangerous = transition.action === 'cancel' || transition.action === 'stop'
    return (
      <Button
        key={transition.action}
        variant={transition.action === 'validate' || transition.action === 'start' ? 'contained' : 'outlined'}
        color={dangerous ? 'error' : 'primary'}
        startIcon={<Icon />}
        loading={change.isPending && change.variables === transition.target && confirming === undefined}
        disabled={change.isPending}
        onClick={() => (transition.confirm ? setConfirming(transition) : run(transition))}
      >
        {t(`mediations.view.actions.${transition.action}`)}
      </Button>
    )
  }

  return (
    <>
      {can.edit && (
        <Button variant="outlined" component={RouterLink} to={editMediationPath(mediation.id)} startIcon={<EditOutlined />}>
          {t('actions.edit')}
        </Button>
      )}
      {can.editReport && (
        <Button variant="outlined" component={RouterLink} to={mediationReportPath(mediation.id)} startIcon={<EditNoteOutlined />}>
          {t('mediations.view.actions.editReport')}
        </Button>
      )}
      {TRANSITIONS.filter((transition) => can[transition.action]).map(button)}
      {confirming && (
        <ConfirmDialog
          title={t(`mediations.view.confirm.${confirming.action}Title`)}
          message={t(`mediations.view.confirm.${confirming.action}Message`, { title: mediation.title })}
          confirmLabel={t(`mediations.view.actions.${confirming.action}`)}
          // Not "Cancel": beside "Cancel the mediation", two cancels would read as the same thing.
          dismissLabel={t('mediations.view.confirm.back')}
          pending={change.isPending}
          onConfirm={() => run(confirming)}
          onClose={() => setConfirming(undefined)}
        />
      )}
    </>
  )
}
