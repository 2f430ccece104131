import Button from '@mui/material/Button'
import Checkbox from '@mui/material/Checkbox'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormGroup from '@mui/material/FormGroup'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Group } from '../../api/types'
import { DIALOG_WIDTH } from '../../components/FormDialog'
import { permissionLabelKey } from '../../lib/permissions'
import { useSaveGroupPermissions } from './api'

interface GroupPermissionsDialogProps {
  group: Group
  /** Every permission name, in display order. */
  names: string[]
  onClose: () => void
}

export function GroupPermissionsDialog({ group, names, onClose }: GroupPermissionsDialogProps) {
  const { t } = useTranslation()
  const [selected, setSelected] = useState(() => new Set(group.permissions))
  const save = useSaveGroupPermissions()

  const toggle = (name: string) => {
    const next = new Set(selected)
    if (next.has(name)) next.delete(name)
    else next.add(name)
    setSelected(next)
  }

  return (
    <Dialog open onClose={onClose} maxWidth={false} slotProps={{ paper: { sx: { width: DIALOG_WIDTH, maxWidth: '100%' } } }}>
      <DialogTitle>{t('permissions.dialogTitle', { group: group.name })}</DialogTitle>
      <DialogContent dividers>
        <FormGroup>
          {names.map((name) => (
            <FormControlLabel
              key={name}
              control={<Checkbox checked={selected.has(name)} onChange={() => toggle(name)} />}
              label={
                <>
                  {t(permissionLabelKey(name), { defaultValue: name })}
                  <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
                    {name}
                  </Typography>
                </>
              }
            />
          ))}
        </FormGroup>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.cancel')}</Button>
        <Button
          variant="contained"
          loading={save.isPending}
          onClick={() =>
            save.mutate({ groupId: group.id, names: names.filter((name) => selected.has(name)) }, { onSuccess: onClose })
          }
        >
          {t('actions.save')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}
