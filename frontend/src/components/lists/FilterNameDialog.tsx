/**
 * The dialog that names a saved filter, to save the current filter or rename one.
 * Props: title, entityType, filters (the saved filters of the entity type), renaming? (the name being
 * changed), offerDefault? (shows "Use as my default filter"), build(name, isDefault) (the whole new list
 * to send), onSaved(), onClose().
 */
import Alert from '@mui/material/Alert'
import Checkbox from '@mui/material/Checkbox'
import FormControlLabel from '@mui/material/FormControlLabel'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isApiError } from '../../api/errors'
import { FormDialog } from '../FormDialog'
import { useSaveFilters } from '../../lib/querylang/api'
import { nameProblem } from '../../lib/querylang/savedFilters'
import type { SavedFilter } from '../../lib/querylang/types'
import TextField from '@mui/material/TextField'
import { useListMessage } from './messages'

interface FilterNameDialogProps {
  title: string
  entityType: string
  filters: readonly SavedFilter[]
  renaming?: string
  offerDefault?: boolean
  build: (name: string, isDefault: boolean) => SavedFilter[]
  onSaved: () => void
  onClose: () => void
}

/** The problem the server found: on the name when it is about a name, otherwise on the whole filter. */
function serverProblem(error: unknown): { name?: string; other?: string } {
  if (!isApiError(error)) return {}
  const first = error.errors[0]
  if (!first) return { other: error.message }
  return first.field.endsWith('.name') ? { name: first.code } : { other: first.code }
}

export function FilterNameDialog({ title, entityType, filters, renaming, offerDefault = false, build, onSaved, onClose }: FilterNameDialogProps) {
  const { t } = useTranslation()
  const message = useListMessage()
  const save = useSaveFilters(entityType, [400, 409])
  const [name, setName] = useState(renaming ?? '')
  const [isDefault, setIsDefault] = useState(false)
  const [submitted, setSubmitted] = useState(false)
  const fromServer = serverProblem(save.error)
  const problem = nameProblem(name, filters, renaming)
  const nameError = submitted ? (problem ?? fromServer.name) : undefined

  return (
    <FormDialog
      title={title}
      hasErrors={nameError !== undefined}
      submitting={save.isPending}
      onSubmit={(event) => {
        event.preventDefault()
        setSubmitted(true)
        if (problem === undefined) save.mutate(build(name, isDefault), { onSuccess: onSaved })
      }}
      onClose={onClose}
    >
      <TextField
        label={t('lists.saved.name')}
        value={name}
        onChange={(event) => {
          setName(event.target.value)
          save.reset()
        }}
        required
        autoFocus
        autoComplete="off"
        error={nameError !== undefined}
        helperText={message(nameError) ?? ' '}
        fullWidth
      />
      {offerDefault && (
        <FormControlLabel
          control={<Checkbox checked={isDefault} onChange={(event) => setIsDefault(event.target.checked)} />}
          label={t('lists.saved.useAsDefault')}
        />
      )}
      {fromServer.other !== undefined && <Alert severity="error">{message(fromServer.other)}</Alert>}
    </FormDialog>
  )
}
