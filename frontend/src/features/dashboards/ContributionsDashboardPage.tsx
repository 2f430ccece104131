import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined'
import PlaceOutlined from '@mui/icons-material/PlaceOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormHelperText from '@mui/material/FormHelperText'
import Grid from '@mui/material/Grid'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import TextField from '@mui/material/TextField'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import Typography from '@mui/material/Typography'
import { visuallyHidden } from '@mui/utils'
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { contextText, MapItemPicker } from '../../components/mapTree/MapItemPicker'
import { PageHeader } from '../../components/PageHeader'
import { SearchPicker } from '../../components/people/SearchPicker'
import { useMessage } from '../../lib/messages'
import { usePageTitle } from '../../lib/pageTitle'
import { useDebouncedValue } from '../../lib/useDebouncedValue'
import { contributionsQuery, exportContributions } from './api'
import {
  type ContributionsSelection,
  contributionsBody,
  type Granularity,
  initialSelection,
  MAX_PERIODS,
  selectionErrors,
} from './contributions'
import { ContributionsChart } from './ContributionsChart'
import { DashboardSection } from './DashboardSection'

/**
 * The contribution dashboard (spec 2 §2, §5, §9): views and contributions of a place of the map (or the
 * whole map), of some contributors or groups (or everyone), per week or month over up to 78 weeks or 18
 * months, as a chart, and as an Excel workbook of a row per user.
 */
export function ContributionsDashboardPage() {
  const { t, i18n } = useTranslation()
  usePageTitle(t('dashboards.contributions.title'))
  const message = useMessage()
  const [selection, setSelection] = useState<ContributionsSelection>(initialSelection)
  const [picking, setPicking] = useState(false)
  const change = (patch: Partial<ContributionsSelection>) => setSelection((current) => ({ ...current, ...patch }))
  const errors = selectionErrors(selection)
  const valid = Object.keys(errors).length === 0
  // Typing a duration asks once typing stops; an invalid selection keeps the last figures shown.
  const settled = useDebouncedValue(selection)
  const settledValid = Object.keys(selectionErrors(settled)).length === 0
  const body = useMemo(() => contributionsBody(settled, new Date()), [settled])
  const figures = useQuery({ ...contributionsQuery(body), enabled: settledValid, placeholderData: keepPreviousData })
  const download = useMutation({
    mutationFn: () => exportContributions(contributionsBody(selection, new Date()), i18n.language),
  })
  const exportWorkbook = () => {
    if (valid) download.mutate()
  }
  const shown = (field: keyof typeof errors) => message(errors[field])
  const max = MAX_PERIODS[selection.granularity]
  const locationHelp = useId()
  const contributorsHelp = useId()

  return (
    <>
      <PageHeader
        title={t('dashboards.contributions.title')}
        actions={
          <Button variant="contained" startIcon={<FileDownloadOutlined />} onClick={exportWorkbook} disabled={!valid || download.isPending}>
            {t('dashboards.contributions.export')}
          </Button>
        }
      />
      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, md: 4 }} sx={{ minWidth: 0 }}>
          <Paper variant="outlined" component="section" aria-label={t('dashboards.contributions.selection')} sx={{ p: 2 }}>
            <Stack spacing={2}>
              <Box>
                <FormControlLabel
                  control={<Switch checked={selection.byLocation} onChange={(event) => change({ byLocation: event.target.checked })} />}
                  label={t('dashboards.contributions.byLocation')}
                />
                {selection.byLocation && (
                  <Box sx={{ mt: 1 }}>
                    <Button variant="outlined" startIcon={<PlaceOutlined />} onClick={() => setPicking(true)} aria-describedby={locationHelp}>
                      {selection.location ? t('dashboards.contributions.changeLocation') : t('dashboards.contributions.chooseLocation')}
                    </Button>
                    <FormHelperText id={locationHelp} error={shown('location') !== undefined} sx={{ overflowWrap: 'anywhere' }}>
                      {selection.location
                        ? contextText([...selection.location.context, selection.location])
                        : (shown('location') ?? t('dashboards.contributions.noLocation'))}
                    </FormHelperText>
                  </Box>
                )}
                {!selection.byLocation && <FormHelperText>{t('dashboards.contributions.wholeMap')}</FormHelperText>}
              </Box>
              <Box>
                <FormControlLabel
                  control={<Switch checked={selection.byContributors} onChange={(event) => change({ byContributors: event.target.checked })} />}
                  label={t('dashboards.contributions.byContributors')}
                />
                {selection.byContributors ? (
                  <Stack spacing={1} sx={{ mt: 1 }} aria-describedby={contributorsHelp}>
                    <SearchPicker
                      of="people"
                      multiple
                      label={t('dashboards.contributions.contributors')}
                      value={selection.contributors}
                      onChange={(contributors) => change({ contributors })}
                      error={shown('contributors') !== undefined}
                      helperText=""
                    />
                    <SearchPicker
                      of="groups"
                      multiple
                      label={t('dashboards.contributions.groups')}
                      value={selection.groups}
                      onChange={(groups) => change({ groups })}
                      error={shown('contributors') !== undefined}
                      helperText=""
                    />
                    <FormHelperText id={contributorsHelp} error={shown('contributors') !== undefined}>
                      {shown('contributors') ?? t('dashboards.contributions.contributorsHelp')}
                    </FormHelperText>
                  </Stack>
                ) : (
                  <FormHelperText>{t('dashboards.contributions.everyone')}</FormHelperText>
                )}
              </Box>
              <Box>
                <Typography variant="body2" component="span" id={`${locationHelp}-granularity`} sx={{ display: 'block', mb: 0.5 }}>
                  {t('usage.granularity')}
                </Typography>
                <ToggleButtonGroup
                  size="small"
                  exclusive
                  value={selection.granularity}
                  onChange={(_event, granularity: Granularity | null) => granularity && change({ granularity, duration: String(MAX_PERIODS[granularity]) })}
                  aria-labelledby={`${locationHelp}-granularity`}
                >
                  <ToggleButton value="week">{t('usage.week')}</ToggleButton>
                  <ToggleButton value="month">{t('usage.month')}</ToggleButton>
                </ToggleButtonGroup>
              </Box>
              <TextField
                label={t(selection.granularity === 'week' ? 'dashboards.contributions.weeks' : 'dashboards.contributions.months')}
                value={selection.duration}
                onChange={(event) => change({ duration: event.target.value })}
                error={errors.duration !== undefined}
                helperText={
                  errors.duration ? `${message(errors.duration)} (${t('dashboards.contributions.between', { max })})` : t('dashboards.contributions.between', { max })
                }
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              />
            </Stack>
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 8 }} sx={{ minWidth: 0 }}>
          <DashboardSection title={t('dashboards.contributions.chart')}>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t(settled.granularity === 'week' ? 'dashboards.contributions.descriptionWeek' : 'dashboards.contributions.descriptionMonth', { count: body.count })}
            </Typography>
            <ContributionsChart
              periods={figures.data?.periods ?? []}
              granularity={figures.data?.granularity ?? settled.granularity}
              loading={figures.isFetching && !figures.data}
              height={320}
            />
          </DashboardSection>
        </Grid>
      </Grid>
      {picking && (
        <MapItemPicker
          title={t('dashboards.contributions.chooseLocation')}
          onPick={(location) => {
            change({ location })
            setPicking(false)
          }}
          onClose={() => setPicking(false)}
        />
      )}
      <div aria-live="polite" style={visuallyHidden}>
        {download.isSuccess ? t('dashboards.contributions.exported') : ''}
      </div>
    </>
  )
}
