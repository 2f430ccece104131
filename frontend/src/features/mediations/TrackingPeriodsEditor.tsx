import Add from '@mui/icons-material/Add'
import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import Stack from '@mui/material/Stack'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { DatePicker } from '@mui/x-date-pickers/DatePicker'
import { TimeField } from '@mui/x-date-pickers/TimeField'
import dayjs, { type Dayjs } from 'dayjs'
import { useTranslation } from 'react-i18next'
import { DatesLocalization } from '../../components/DateInput'
import { datePattern, organizationTimeZone } from '../../lib/dates'
import { fromOrganizationWallClock, inOrganizationZone } from '../../lib/organizationClock'
import { useMessage } from '../../lib/messages'
import { canDeletePeriod, type EditedPeriod, type PeriodErrors, type StoredPeriod } from './trackingPeriods'
import { ZoneNote } from './ZoneNote'

const TIME_FORMAT = 'HH:mm'

/** A period's four inputs, as typed: a day and a time for its start and for its stop, on the organisation's clocks. */
export interface PeriodInputs {
  /** Tells the rows apart while periods are added and deleted. */
  key: number
  startDate: Dayjs | null
  startTime: Dayjs | null
  stopDate: Dayjs | null
  stopTime: Dayjs | null
}

/**
 * The day at the time's hours and minutes on the organisation's clocks; null when either is empty,
 * invalid when either is unreadable.
 */
function instant(date: Dayjs | null, time: Dayjs | null): Dayjs | null {
  if (date === null || time === null) return null
  if (!date.isValid() || !time.isValid()) return dayjs(Number.NaN)
  return fromOrganizationWallClock(date, time)
}

export const editedPeriod = (inputs: PeriodInputs): EditedPeriod => ({
  start: instant(inputs.startDate, inputs.startTime),
  stop: instant(inputs.stopDate, inputs.stopTime),
})

export function periodInputs(key: number, { start, stop }: { start: Dayjs | string | null; stop?: Dayjs | string | null }): PeriodInputs {
  const startAt = start ? inOrganizationZone(start) : null
  const stopAt = stop ? inOrganizationZone(stop) : null
  return { key, startDate: startAt, startTime: startAt, stopDate: stopAt, stopTime: stopAt }
}

export const storedPeriodInputs = (periods: StoredPeriod[]) => periods.map((period, index) => periodInputs(index, period))

interface TrackingPeriodsEditorProps {
  periods: PeriodInputs[]
  /** Each period's refusal (message keys), in the order of `periods`. */
  errors: PeriodErrors[]
  onChange: (periods: PeriodInputs[]) => void
  onAdd: () => void
}

/**
 * The dates section of the report: one row per period with its start and stop (a date, YYYY-MM-DD in
 * English and DD/MM/YYYY in French, and a 24 h time, on the organisation's clocks), an add button and a
 * delete button per period, disabled when one is left. A refusal shows on the start or stop it is
 * about. The organisation's zone is named above the periods when the browser's differs.
 */
export function TrackingPeriodsEditor({ periods, errors, onChange, onAdd }: TrackingPeriodsEditorProps) {
  const { t, i18n } = useTranslation()
  const first = periods.length > 0 ? editedPeriod(periods[0]).start : null
  const deletable = canDeletePeriod(periods)
  const update = (key: number, changes: Partial<PeriodInputs>) =>
    onChange(periods.map((period) => (period.key === key ? { ...period, ...changes } : period)))
  return (
    <DatesLocalization>
      <ZoneNote at={first?.isValid() ? first : dayjs()} sx={{ mb: 1.5 }} />
      <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {periods.map((period, index) => {
          const label = t('mediations.report.periodLabel', { number: index + 1 })
          return (
            <Box component="li" key={period.key}>
              <Box role="group" aria-label={label} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: { xs: 1.5, sm: 2 }, pt: 1.5, pb: 0.5 }}>
                <Stack direction="row" sx={{ alignItems: 'center', mb: 1.5 }}>
                  <Typography variant="body2" component="h3" sx={{ fontWeight: 600, flexGrow: 1 }}>
                    {label}
                  </Typography>
                  <Tooltip title={deletable ? t('mediations.report.deletePeriod', { number: index + 1 }) : t('mediations.report.lastPeriod')}>
                    {/* A disabled button gets no pointer events: its tooltip needs a wrapper. */}
                    <span>
                      <IconButton
                        aria-label={t('mediations.report.deletePeriod', { number: index + 1 })}
                        disabled={!deletable}
                        onClick={() => onChange(periods.filter((other) => other.key !== period.key))}
                        size="small"
                      >
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                </Stack>
                <Stack direction={{ xs: 'column', md: 'row' }} spacing={{ xs: 0, md: 2 }}>
                  <InstantInputs
                    which="start"
                    date={period.startDate}
                    time={period.startTime}
                    error={errors[index]?.start}
                    format={datePattern(i18n.language)}
                    onDate={(startDate) => update(period.key, { startDate })}
                    onTime={(startTime) => update(period.key, { startTime })}
                  />
                  <InstantInputs
                    which="stop"
                    date={period.stopDate}
                    time={period.stopTime}
                    error={errors[index]?.stop}
                    format={datePattern(i18n.language)}
                    onDate={(stopDate) => update(period.key, { stopDate })}
                    onTime={(stopTime) => update(period.key, { stopTime })}
                  />
                </Stack>
              </Box>
            </Box>
          )
        })}
      </Stack>
      <Button startIcon={<Add />} onClick={onAdd} sx={{ mt: 1.5 }}>
        {t('mediations.report.addPeriod')}
      </Button>
    </DatesLocalization>
  )
}

interface InstantInputsProps {
  which: 'start' | 'stop'
  date: Dayjs | null
  time: Dayjs | null
  /** A message key; shown under the date, the time marked too. */
  error: string | undefined
  format: string
  onDate: (value: Dayjs | null) => void
  onTime: (value: Dayjs | null) => void
}

function InstantInputs({ which, date, time, error, format, onDate, onTime }: InstantInputsProps) {
  const { t } = useTranslation()
  const message = useMessage()
  return (
    <Stack direction="row" spacing={1} sx={{ flex: 1, minWidth: 0 }}>
      <DatePicker
        label={t(`mediations.report.${which}Date`)}
        value={date}
        onChange={onDate}
        format={format}
        timezone={organizationTimeZone()}
        sx={{ flex: 3, minWidth: 0 }}
        slotProps={{ textField: { error: error !== undefined, helperText: message(error) ?? ' ', size: 'small' } }}
      />
      <TimeField
        label={t(`mediations.report.${which}Time`)}
        value={time}
        onChange={onTime}
        format={TIME_FORMAT}
        timezone={organizationTimeZone()}
        ampm={false}
        error={error !== undefined}
        helperText=" "
        size="small"
        sx={{ flex: 2, minWidth: 0 }}
      />
    </Stack>
  )
}
