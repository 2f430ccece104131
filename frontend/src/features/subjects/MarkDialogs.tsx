import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { type FormEvent, type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { criticityTableQuery, type LifetimeEvent, type Mark, type Subject } from './api'
import { frequencyTextKey, gravityTextKey, LEVEL_COLOURS, levelTextKey, RATING_LEVELS } from './criticity'
import { useLifetimeText } from './lifetime'

export type MarkKind = Mark['kind']

interface MarkDialogProps {
  kind: MarkKind
  subject: Subject
  pending: boolean
  onConfirm: (mark: Mark) => void
  onClose: () => void
}

/** Asks before setting a mark on the subject; each mark records the user and the date. */
export function MarkDialog({ kind, subject, pending, onConfirm, onClose }: MarkDialogProps) {
  switch (kind) {
    case 'follow':
      return <SimpleMark kind={kind} previous={subject.lifetimeEvents.followed} pending={pending} onConfirm={onConfirm} onClose={onClose} />
    case 'resolve':
      return <SimpleMark kind={kind} previous={subject.lifetimeEvents.resolved} pending={pending} onConfirm={onConfirm} onClose={onClose} />
    case 'rate':
      return <RateDialog subject={subject} pending={pending} onConfirm={onConfirm} onClose={onClose} />
    case 'standardize':
      return <StandardizeDialog subject={subject} pending={pending} onConfirm={onConfirm} onClose={onClose} />
  }
}

interface ShellProps {
  title: string
  pending: boolean
  onSubmit: () => void
  onClose: () => void
  children: ReactNode
}

function MarkDialogShell({ title, pending, onSubmit, onClose, children }: ShellProps) {
  const { t } = useTranslation()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSubmit()
  }
  return (
    <Dialog open onClose={onClose} maxWidth={false} slotProps={{ paper: { sx: { width: 480, maxWidth: '100%' } } }}>
      <form onSubmit={submit} noValidate>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>{children}</Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="submit" variant="contained" loading={pending}>
            {t('subjects.marks.confirm')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  )
}

type Confirming = Omit<MarkDialogProps, 'kind' | 'subject'>

function SimpleMark({ kind, previous, ...props }: Confirming & { kind: 'follow' | 'resolve'; previous: LifetimeEvent | null }) {
  const { t } = useTranslation()
  const lifetime = useLifetimeText()
  return (
    <MarkDialogShell title={t(`subjects.marks.${kind}Title`)} {...props} onSubmit={() => props.onConfirm({ kind })}>
      <DialogContentText>{t(`subjects.marks.${kind}Message`)}</DialogContentText>
      {previous && <Alert severity="info">{t('subjects.marks.alreadySet', { when: lifetime(previous, '') })}</Alert>}
    </MarkDialogShell>
  )
}

function RateDialog({ subject, ...props }: Confirming & { subject: Subject }) {
  const { t } = useTranslation()
  const [frequency, setFrequency] = useState(subject.ratings.frequency)
  const [gravity, setGravity] = useState(subject.ratings.gravity)
  // The level as the server bands the rating (the same rule as the level it saves).
  const { data: table } = useQuery(criticityTableQuery)
  const level = table?.levels[frequency]?.[gravity]
  const scale = (label: string, value: number, onChange: (level: number) => void, textKey: (level: number) => string) => (
    <TextField select fullWidth label={label} value={value} onChange={(event) => onChange(Number(event.target.value))}>
      {RATING_LEVELS.map((option) => (
        <MenuItem key={option} value={option}>
          {t('subjects.criticity.option', { level: option, text: t(textKey(option)) })}
        </MenuItem>
      ))}
    </TextField>
  )
  return (
    <MarkDialogShell
      title={t('subjects.marks.rateTitle')}
      {...props}
      onSubmit={() => props.onConfirm({ kind: 'rate', ratings: { frequency, gravity, detectability: 0 } })}
    >
      <DialogContentText>{t('subjects.marks.rateMessage')}</DialogContentText>
      {scale(t('subjects.criticity.frequency'), frequency, setFrequency, frequencyTextKey)}
      {scale(t('subjects.criticity.gravity'), gravity, setGravity, gravityTextKey)}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="body2" color="text.secondary">
          {t('subjects.criticity.resulting')}
        </Typography>
        {table && <Chip size="small" color={level ? LEVEL_COLOURS[level] : 'default'} label={t(levelTextKey(level))} />}
      </Stack>
    </MarkDialogShell>
  )
}

function StandardizeDialog({ subject, ...props }: Confirming & { subject: Subject }) {
  const { t } = useTranslation()
  const [comment, setComment] = useState(subject.standardizedComment)
  return (
    <MarkDialogShell
      title={t('subjects.marks.standardizeTitle')}
      {...props}
      onSubmit={() => props.onConfirm({ kind: 'standardize', comment: comment.trim() })}
    >
      <DialogContentText>{t('subjects.marks.standardizeMessage')}</DialogContentText>
      <TextField
        label={t('subjects.marks.comment')}
        value={comment}
        onChange={(event) => setComment(event.target.value)}
        multiline
        minRows={3}
        fullWidth
        autoFocus
        slotProps={{ htmlInput: { maxLength: 5000 } }}
      />
    </MarkDialogShell>
  )
}
