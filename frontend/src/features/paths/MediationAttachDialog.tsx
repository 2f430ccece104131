import Search from '@mui/icons-material/Search'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import InputAdornment from '@mui/material/InputAdornment'
import LinearProgress from '@mui/material/LinearProgress'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemText from '@mui/material/ListItemText'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { queryKeys } from '../../api/queryKeys'
import { DIALOG_WIDTH } from '../../components/FormDialog'
import { formatDateTime } from '../../lib/dates'
import { useDebouncedValue } from '../../lib/useDebouncedValue'
import { attachMediation, searchMediations, usePathAction } from './actions'

interface MediationAttachDialogProps {
  pathId: number
  moduleIndex: number
  resultIndex: number
  /** The element's title, for the dialog's title. */
  elementTitle: string
  /** Mediations already attached: offered no more. */
  attachedIds: number[]
  onAttached: () => void
  onClose: () => void
}

/**
 * Picks a mediation the user may read, found by part of its title (500 ms after typing stops), and
 * attaches it to a mediation element of the path: the element is done once that mediation is validated
 * and signed by the learner.
 */
export function MediationAttachDialog({ pathId, moduleIndex, resultIndex, elementTitle, attachedIds, onAttached, onClose }: MediationAttachDialogProps) {
  const { t, i18n } = useTranslation()
  const [text, setText] = useState('')
  const searched = useDebouncedValue(text.trim())
  const found = useQuery({ queryKey: queryKeys.mediations.search(searched), queryFn: () => searchMediations(searched) })
  const attach = usePathAction(pathId, (mediationId: number) => attachMediation(pathId, moduleIndex, resultIndex, mediationId))
  const offered = (found.data?.results ?? []).filter((mediation) => !attachedIds.includes(mediation.id))
  return (
    <Dialog open onClose={onClose} maxWidth={false} slotProps={{ paper: { sx: { width: DIALOG_WIDTH, maxWidth: '100%' } } }}>
      <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{t('trainingPath.attachDialog.title', { title: elementTitle })}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          type="search"
          label={t('trainingPath.attachDialog.search')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          autoComplete="off"
          sx={{ mt: 1 }}
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search /></InputAdornment> } }}
        />
        {(found.isFetching || text.trim() !== searched) && <LinearProgress sx={{ mt: 1 }} aria-label={t('common.loading')} />}
        {found.data && offered.length === 0 ? (
          <Typography color="text.secondary" sx={{ mt: 2 }}>
            {t('trainingPath.attachDialog.nothingFound')}
          </Typography>
        ) : (
          <List aria-label={t('trainingPath.attachDialog.results')}>
            {offered.map((mediation) => (
              <ListItem key={mediation.id} divider disableGutters sx={{ flexWrap: 'wrap', gap: 1 }}>
                <ListItemText
                  sx={{ minWidth: 0, flex: '1 1 12rem', overflowWrap: 'anywhere' }}
                  primary={mediation.title}
                  secondary={[
                    t(`mediationStatuses.${mediation.status}`),
                    mediation.schedulingDate ? formatDateTime(mediation.schedulingDate, i18n.language) : undefined,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                />
                <Button
                  variant="outlined"
                  size="small"
                  loading={attach.isPending && attach.variables === mediation.id}
                  disabled={attach.isPending}
                  onClick={() => attach.mutate(mediation.id, { onSuccess: onAttached })}
                  aria-label={t('trainingPath.attachDialog.attachName', { title: mediation.title })}
                >
                  {t('trainingPath.attachDialog.attach')}
                </Button>
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.close')}</Button>
      </DialogActions>
    </Dialog>
  )
}
