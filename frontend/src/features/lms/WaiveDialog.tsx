import HowToRegOutlined from '@mui/icons-material/HowToRegOutlined'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import { useTheme } from '@mui/material/styles'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import useMediaQuery from '@mui/material/useMediaQuery'
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { api, data } from '../../api/client'
import { isApiError } from '../../api/errors'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { type Named, SearchPicker } from '../../components/people/SearchPicker'
import { formatDateTime } from '../../lib/dates'
import { useMessage } from '../../lib/messages'

export type WaiveReason = components['schemas']['WaiveIn']['reason']
/** cmi5 §9.5.5.2: the reasons a unit is waived for. */
export const WAIVE_REASONS: WaiveReason[] = ['Administrative', 'Tested Out', 'Equivalent AU', 'Equivalent Outside Activity']
const REASON_KEYS: Record<WaiveReason, string> = {
  Administrative: 'administrative',
  'Tested Out': 'testedOut',
  'Equivalent AU': 'equivalentUnit',
  'Equivalent Outside Activity': 'equivalentOutside',
}

/** What a learner satisfied of a course (its units and blocks), as the server says. */
export const courseSatisfactionQuery = (courseId: number, learnerId: number) =>
  queryOptions({
    queryKey: queryKeys.lms.satisfaction(courseId, learnerId),
    queryFn: () =>
      data(
        api.GET('/backend/api/v2/lms/courses/{courseId}/satisfaction', {
          params: { path: { courseId }, query: { learnerId } },
        }),
      ),
  })

/**
 * The button opening a unit's waiver, shown where the course's `can.waive` allows it: a learner is
 * dispensed from the unit (cmi5 "waived"), which then counts as satisfied, for a reason.
 */
export function WaiveButton({ unit, courseId }: { unit: { id: number; name: string }; courseId: number }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  return (
    <>
      <Box>
        <Button variant="outlined" startIcon={<HowToRegOutlined />} onClick={() => setOpen(true)} aria-label={t('lms.waive.openName', { name: unit.name })}>
          {t('lms.waive.open')}
        </Button>
      </Box>
      {open && <WaiveDialog unit={unit} courseId={courseId} onClose={() => setOpen(false)} />}
    </>
  )
}

export function WaiveDialog({ unit, courseId, onClose }: { unit: { id: number; name: string }; courseId: number; onClose: () => void }) {
  const { t } = useTranslation()
  const theme = useTheme()
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'))
  const titleId = useId()
  const [learner, setLearner] = useState<Named | null>(null)
  const [reason, setReason] = useState<WaiveReason>('Administrative')
  const [refused, setRefused] = useState<string>()
  const message = useMessage()
  const queryClient = useQueryClient()
  const satisfaction = useQuery({ ...courseSatisfactionQuery(courseId, learner?.id ?? 0), enabled: learner !== null })
  const waive = useMutation({
    mutationFn: (learnerId: number) =>
      data(api.POST('/backend/api/v2/lms/items/{itemId}/waive', { params: { path: { itemId: unit.id } }, body: { learnerId, reason } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['lms'] }),
    onError: (error) => setRefused(isApiError(error) ? message(error.message) : error.message),
  })
  const status = learner && satisfaction.data ? satisfaction.data.items.find((item) => item.itemId === unit.id) : undefined
  const known = learner !== null && satisfaction.data !== undefined
  return (
    <Dialog open onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          setRefused(undefined)
          if (learner) waive.mutate(learner.id)
        }}
      >
        <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
          {t('lms.waive.title', { name: unit.name })}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2">{t('lms.waive.explanation')}</Typography>
            <SearchPicker
              of="people"
              label={t('lms.waive.learner')}
              required
              value={learner}
              onChange={(value) => {
                setLearner(value)
                setRefused(undefined)
                waive.reset()
              }}
            />
            {known && (
              <Typography variant="body2" aria-live="polite">
                {status ? <SatisfiedStatus status={status} /> : t('lms.waive.notSatisfied')}
              </Typography>
            )}
            <TextField select label={t('lms.waive.reason')} value={reason} onChange={(event) => setReason(event.target.value as WaiveReason)} sx={{ maxWidth: 360 }}>
              {WAIVE_REASONS.map((value) => (
                <MenuItem key={value} value={value}>
                  {t(`lms.waive.reasons.${REASON_KEYS[value]}`)}
                </MenuItem>
              ))}
            </TextField>
            {waive.isSuccess && learner && <Alert severity="success">{t('lms.waive.done', { name: learner.name })}</Alert>}
            {refused && <Alert severity="error">{refused}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('actions.close')}</Button>
          <Button type="submit" variant="contained" loading={waive.isPending} disabled={!known || status !== undefined || waive.isSuccess}>
            {t('lms.waive.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  )
}

function SatisfiedStatus({ status }: { status: components['schemas']['ItemSatisfaction'] }) {
  const { t, i18n } = useTranslation()
  const at = formatDateTime(status.satisfiedAt, i18n.language)
  if (status.method === 'waived' && status.reason && status.reason in REASON_KEYS) {
    return <>{t('lms.waive.waivedOn', { date: at, reason: t(`lms.waive.reasons.${REASON_KEYS[status.reason as WaiveReason]}`) })}</>
  }
  return <>{t(`lms.waive.satisfiedOn.${status.method}`, { date: at })}</>
}
