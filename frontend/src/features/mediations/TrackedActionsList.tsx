import Refresh from '@mui/icons-material/Refresh'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Checkbox from '@mui/material/Checkbox'
import Chip from '@mui/material/Chip'
import FormControlLabel from '@mui/material/FormControlLabel'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import type { TrackedAction } from './api'
import { useActionLine } from './reportTexts'

interface TrackedActionsListProps {
  /** The actions of the periods last loaded, oldest first. */
  actions: TrackedAction[]
  loading: boolean
  /** Loading failed: the list is incomplete and the report cannot be saved from it. */
  failed: boolean
  selected: ReadonlySet<number>
  onToggle: (actionId: number) => void
  /** The periods changed since the list was loaded: it must be loaded again before saving. */
  stale: boolean
  /** The periods hold errors: the list cannot be loaded for them. */
  periodsInvalid: boolean
  onReload: () => void
}

/**
 * What the mediator and participants did during the periods (read or wrote which item, when), each
 * with a checkbox to put it in the report. When the periods change, the list says it is out of date
 * and offers to load it again.
 */
export function TrackedActionsList({ actions, loading, failed, selected, onToggle, stale, periodsInvalid, onReload }: TrackedActionsListProps) {
  const { t } = useTranslation()
  const line = useActionLine()
  const reload = (
    <Button color="inherit" size="small" startIcon={<Refresh />} onClick={onReload} disabled={periodsInvalid}>
      {t('mediations.report.reloadActions')}
    </Button>
  )
  return (
    <Stack spacing={1.5}>
      {stale && (
        <Alert severity="warning" action={reload}>
          {periodsInvalid ? t('mediations.report.actionsStaleFixPeriods') : t('mediations.report.actionsStale')}
        </Alert>
      )}
      {failed && !stale && (
        <Alert severity="error" action={reload}>
          {t('mediations.report.actionsFailed')}
        </Alert>
      )}
      {loading ? (
        <Typography color="text.secondary">{t('mediations.report.actionsLoading')}</Typography>
      ) : actions.length === 0 ? (
        <Typography color="text.secondary">{t('mediations.report.noAction')}</Typography>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" aria-live="polite">
            {t('mediations.report.selectedCount', { count: actions.filter((action) => selected.has(action.id)).length, total: actions.length })}
          </Typography>
          {/* Out of date, the list is shaded rather than faded: its lines keep their contrast. */}
          <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, borderRadius: 1, bgcolor: stale ? 'action.hover' : undefined }}>
            {actions.map((action) => (
              <Box component="li" key={action.id} sx={{ borderBottom: 1, borderColor: 'divider', py: 0.25 }}>
                <FormControlLabel
                  sx={{ alignItems: 'flex-start', m: 0, width: '100%' }}
                  control={<Checkbox checked={selected.has(action.id)} onChange={() => onToggle(action.id)} sx={{ mt: -0.5 }} />}
                  label={
                    <Stack direction="row" sx={{ alignItems: 'center', gap: 1, py: 0.5, minWidth: 0 }}>
                      {/* R or W at a glance; the line itself says read or write, and is the checkbox's name. */}
                      <Chip
                        aria-hidden
                        size="small"
                        variant="outlined"
                        color={action.mode === 'R' ? 'default' : 'primary'}
                        label={action.mode === 'R' ? t('mediations.report.modes.readShort') : t('mediations.report.modes.writeShort')}
                        sx={{ minWidth: 32, flexShrink: 0 }}
                      />
                      <Typography variant="body2" component="span" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                        {line(action)}
                      </Typography>
                    </Stack>
                  }
                />
              </Box>
            ))}
          </Box>
        </>
      )}
    </Stack>
  )
}
