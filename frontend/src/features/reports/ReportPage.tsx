import { zodResolver } from '@hookform/resolvers/zod'
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined'
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined'
import SaveOutlined from '@mui/icons-material/SaveOutlined'
import TableRowsOutlined from '@mui/icons-material/TableRowsOutlined'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import FormControlLabel from '@mui/material/FormControlLabel'
import Grid from '@mui/material/Grid'
import LinearProgress from '@mui/material/LinearProgress'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import Typography from '@mui/material/Typography'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useId, useState } from 'react'
import { type Control, Controller, type Resolver, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { isApiError } from '../../api/errors'
import { FormSection } from '../../components/FormSection'
import { downloadResult, isRunning, jobQuery, percentDone } from '../../components/jobs/api'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { Notice } from '../../components/Notice'
import { PageHeader } from '../../components/PageHeader'
import { SearchPicker } from '../../components/people/SearchPicker'
import { TextInput } from '../../components/TextInput'
import { useMessage } from '../../lib/messages'
import { usePageTitle } from '../../lib/pageTitle'
import {
  configurationsQuery,
  exportExcel,
  fetchReportPaths,
  namesQuery,
  openingQuery,
  type ReportConfiguration,
  type ReportPaths,
  type ReportRequest,
  SHOWN_BY_PAGE,
  startPdf,
} from './api'
import { Choices, valueChoices } from './Choices'
import { DateInput, DatesLocalization } from '../../components/DateInput'
import { PathsDialog } from './PathsDialog'
import {
  formFieldOf,
  formFromRequest,
  MODULE_OPTIONS,
  MODULE_STATUSES,
  MODULE_TYPES,
  PATH_OPTIONS,
  PATH_STATUSES,
  type ReportForm,
  reportSchema,
  requestFromForm,
  type TextDefaults,
} from './reportForm'
import { SavedSetsMenu } from './SavedSetsMenu'
import { SaveDialog } from './SaveDialog'
import { SignatureImageField } from './SignatureImageField'

/** The translated texts a report prints when its parameters leave them empty. */
function useTextDefaults(): TextDefaults {
  const { t } = useTranslation()
  return { documentTitle: t('reports.document.defaultTitle'), managerSignatureLabel: t('reports.document.defaultManagerLabel') }
}

/**
 * The path report page (spec 2 §2 'Path report page', §5 Report, §9): selection parameters on the left,
 * print options on the right, the saved parameter sets, and Save parameters, Show training paths, Excel
 * export and Generate report (a zip of one PDF per learner, with its progress). It opens with the user's
 * default set, else the server's defaults.
 */
export function ReportPage() {
  const { t } = useTranslation()
  usePageTitle(t('reports.pageTitle'))
  const queryClient = useQueryClient()
  const opening = useQuery(openingQuery(queryClient))
  const configurations = useQuery(configurationsQuery)
  const textDefaults = useTextDefaults()
  const error = opening.error ?? configurations.error
  if (error) return <LoadFailure error={error} />
  if (!opening.data || !configurations.data) return <Loading />
  const { request, name, names } = opening.data
  return <ReportFormView initial={formFromRequest(request, names, textDefaults)} initialName={name} configurations={configurations.data} />
}

interface ReportFormViewProps {
  initial: ReportForm
  initialName?: string
  configurations: ReportConfiguration[]
}

type Output = 'paths' | 'excel' | 'pdf'

function ReportFormView({ initial, initialName, configurations }: ReportFormViewProps) {
  const { t, i18n } = useTranslation()
  const message = useMessage()
  const queryClient = useQueryClient()
  const textDefaults = useTextDefaults()
  const [loadedName, setLoadedName] = useState(initialName)
  const [saving, setSaving] = useState(false)
  const [paths, setPaths] = useState<ReportPaths>()
  const [refused, setRefused] = useState<string>()
  const [notice, setNotice] = useState<string>()
  const [jobId, setJobId] = useState<number>()
  const { control, handleSubmit, setError, clearErrors, reset, getValues, formState } = useForm<ReportForm>({
    resolver: zodResolver(reportSchema) as unknown as Resolver<ReportForm>,
    defaultValues: initial,
  })
  const [managerSignature, mediations] = useWatch({ control, name: ['managerSignature', 'moduleOptions.mediations'] })

  /** Puts the server's refusal on the fields it names; otherwise says it above the buttons. Nothing typed is lost. */
  const showRefusal = (error: Error) => {
    if (!isApiError(error)) return setRefused(error.message)
    let shown = 0
    for (const fieldError of error.errors) {
      const field = formFieldOf(fieldError.field)
      if (!field) continue
      setError(field, { type: 'server', message: fieldError.code }, { shouldFocus: shown === 0 })
      shown += 1
    }
    if (shown === 0) setRefused(message(error.errors[0]?.code ?? error.message))
  }

  const load = useMutation({
    mutationFn: async (configuration: ReportConfiguration) => ({
      configuration,
      names: await queryClient.fetchQuery(namesQuery(configuration)),
    }),
    onSuccess: ({ configuration, names }) => {
      reset(formFromRequest(configuration, names, textDefaults))
      setLoadedName(configuration.name)
      setRefused(undefined)
      setNotice(t('reports.saved.loaded', { name: configuration.name }))
    },
  })
  const showPaths = useMutation({ mutationFn: fetchReportPaths, meta: SHOWN_BY_PAGE, onSuccess: setPaths, onError: showRefusal })
  const excel = useMutation({
    mutationFn: (body: ReportRequest) => exportExcel(body, i18n.language),
    meta: SHOWN_BY_PAGE,
    // Over 1,000 paths the server answers the job that makes the file, shown as the zip's is.
    onSuccess: (job) => (job ? setJobId(job.id) : setNotice(t('reports.outputs.excelDone'))),
    onError: showRefusal,
  })
  const pdf = useMutation({
    mutationFn: (body: ReportRequest) => startPdf(body, i18n.language),
    meta: SHOWN_BY_PAGE,
    onSuccess: (job) => setJobId(job.id),
    onError: showRefusal,
  })
  // The zip is a job: its progress is read until it ends, then its result is offered for download.
  const job = useQuery({ ...jobQuery(jobId ?? 0), enabled: jobId !== undefined }).data
  const isExcel = job?.kind === 'reportExcel'
  const fetchResult = useMutation({
    mutationFn: downloadResult,
    onSuccess: () => setNotice(t(isExcel ? 'reports.outputs.excelDone' : 'reports.outputs.pdfDone')),
  })

  const run = (output: Output) => () => {
    setRefused(undefined)
    void handleSubmit((form) => {
      const body = requestFromForm(form)
      if (output === 'paths') showPaths.mutate(body)
      else if (output === 'excel') excel.mutate(body)
      else {
        setJobId(undefined)
        pdf.mutate(body)
      }
    })()
  }
  const askName = () => {
    setRefused(undefined)
    void handleSubmit(() => setSaving(true))()
  }

  const hasErrors = Object.keys(formState.errors).length > 0
  const generating = pdf.isPending || isRunning(job)
  const done = job && isRunning(job) && job.total > 0 ? job : undefined

  return (
    <DatesLocalization>
      <PageHeader
        title={t('reports.title')}
        actions={
          <SavedSetsMenu
            configurations={configurations}
            current={loadedName}
            onLoad={(configuration) => load.mutate(configuration)}
            onDeleted={(name) => {
              if (name === loadedName) setLoadedName(undefined)
              setNotice(t('reports.saved.deleted', { name }))
            }}
          />
        }
      />
      {loadedName && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: -2, mb: 2 }} data-testid="loaded-set">
          {t('reports.saved.current', { name: loadedName })}
        </Typography>
      )}
      <Box component="form" noValidate aria-label={t('reports.title')} onSubmit={(event) => event.preventDefault()}>
        <Grid container spacing={2.5}>
          <Grid size={{ xs: 12, md: 6 }} sx={{ minWidth: 0 }}>
            <Panel title={t('reports.selection.title')}>
              <FormSection title={t('reports.selection.period')}>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 2 }}>
                  <DateInput control={control} name="start" label={t('reports.selection.start')} deps={['stop']} />
                  <DateInput control={control} name="stop" label={t('reports.selection.stop')} deps={['start']} />
                </Stack>
              </FormSection>
              <FormSection title={t('reports.selection.who')} help={t('reports.selection.whoHelp')}>
                <PeopleField control={control} name="learners" label={t('reports.selection.learners')} />
                <PeopleField control={control} name="groups" label={t('reports.selection.groups')} />
              </FormSection>
              <Controller
                control={control}
                name="pathStatutes"
                render={({ field, fieldState }) => (
                  <Choices
                    legend={t('reports.selection.pathStatutes')}
                    inputRef={field.ref}
                    choices={valueChoices(PATH_STATUSES, field.value, (status) => t(`trainingPaths.status.${status}`), field.onChange)}
                    error={message(fieldState.error?.message)}
                  />
                )}
              />
              <Controller
                control={control}
                name="moduleStatutes"
                render={({ field, fieldState }) => (
                  <Choices
                    legend={t('reports.selection.moduleStatutes')}
                    inputRef={field.ref}
                    choices={valueChoices(MODULE_STATUSES, field.value, (status) => t(`trainingPaths.moduleStatus.${status}`), field.onChange)}
                    error={message(fieldState.error?.message)}
                  />
                )}
              />
              <Controller
                control={control}
                name="moduleTypes"
                render={({ field, fieldState }) => (
                  <Choices
                    legend={t('reports.selection.moduleTypes')}
                    inputRef={field.ref}
                    columns={3}
                    choices={valueChoices(MODULE_TYPES, field.value, (type) => t(`modules.types.${type}`), field.onChange)}
                    error={message(fieldState.error?.message)}
                  />
                )}
              />
            </Panel>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }} sx={{ minWidth: 0 }}>
            <Panel title={t('reports.document.title')}>
              <TextInput control={control} name="documentTitle" label={t('reports.document.documentTitle')} required autoComplete="off" />
              <SwitchField control={control} name="displayExternalIds" label={t('reports.document.displayExternalIds')} />
              <SwitchField control={control} name="learnerSignature" label={t('reports.document.learnerSignature')} />
              <SwitchField control={control} name="managerSignature" label={t('reports.document.managerSignature')} />
              {managerSignature && (
                <TextInput control={control} name="managerSignatureLabel" label={t('reports.document.managerSignatureLabel')} required autoComplete="off" />
              )}
              <Controller
                control={control}
                name="signatureImage"
                render={({ field, fieldState }) => (
                  <SignatureImageField
                    value={field.value}
                    onChange={(value) => {
                      clearErrors('signatureImage')
                      field.onChange(value)
                    }}
                    error={fieldState.error?.message}
                    onRefused={(code) => setError('signatureImage', { type: 'client', message: code })}
                    message={message}
                  />
                )}
              />
              <Controller
                control={control}
                name="pathOptions"
                render={({ field }) => (
                  <Choices
                    legend={t('reports.pathOptions.title')}
                    choices={PATH_OPTIONS.map((option) => ({
                      key: option,
                      label: t(`reports.pathOptions.${option}`),
                      checked: field.value[option],
                      onChange: (checked) => field.onChange({ ...field.value, [option]: checked }),
                    }))}
                  />
                )}
              />
              <Controller
                control={control}
                name="moduleOptions"
                render={({ field }) => (
                  <Choices
                    legend={t('reports.moduleOptions.title')}
                    help={mediations ? undefined : t('reports.moduleOptions.mediatorsHelp')}
                    choices={MODULE_OPTIONS.map((option) => {
                      const unavailable = option === 'mediators' && !mediations
                      return {
                        key: option,
                        label: t(`reports.moduleOptions.${option}`),
                        checked: field.value[option] && !unavailable,
                        disabled: unavailable,
                        onChange: (checked: boolean) => field.onChange({ ...field.value, [option]: checked }),
                      }
                    })}
                  />
                )}
              />
            </Panel>
          </Grid>
        </Grid>
        <Paper variant="outlined" component="section" aria-label={t('reports.outputs.title')} sx={{ mt: 2.5, p: 2 }}>
          <Stack spacing={1.5}>
            {hasErrors && <Alert severity="error">{t('codes.atLeastOneErrorLeft')}</Alert>}
            {refused && <Alert severity="warning">{refused}</Alert>}
            {generating && (
              <Box role="status" aria-live="polite">
                <Typography variant="body2" sx={{ mb: 0.5 }}>
                  {done ? t('reports.outputs.progress', { count: done.done, total: done.total }) : t('reports.outputs.starting')}
                </Typography>
                <LinearProgress
                  variant={done ? 'determinate' : 'indeterminate'}
                  value={done ? percentDone(done) : undefined}
                  aria-label={t(isExcel ? 'reports.outputs.excelProgressLabel' : 'reports.outputs.progressLabel')}
                />
              </Box>
            )}
            {job?.status === 'succeeded' && job.can.download && (
              <Alert
                severity="success"
                role="status"
                action={
                  <Button color="inherit" size="small" startIcon={<FileDownloadOutlined />} onClick={() => fetchResult.mutate(job)} loading={fetchResult.isPending}>
                    {t('reports.outputs.download', { name: job.downloadName })}
                  </Button>
                }
              >
                {t(isExcel ? 'reports.outputs.excelReady' : 'reports.outputs.ready', { count: job.total })}
              </Alert>
            )}
            {job?.status === 'failed' && <Alert severity="warning">{message(job.error ?? 'jobFailed')}</Alert>}
            <Stack direction="row" spacing={1.5} useFlexGap sx={{ justifyContent: 'flex-end', flexWrap: 'wrap', '& > button': { flexGrow: { xs: 1, sm: 0 } } }}>
              <Button variant="outlined" startIcon={<SaveOutlined />} onClick={askName}>
                {t('reports.outputs.save')}
              </Button>
              <Button variant="outlined" startIcon={<TableRowsOutlined />} onClick={run('paths')} loading={showPaths.isPending}>
                {t('reports.outputs.showPaths')}
              </Button>
              <Button variant="contained" startIcon={<FileDownloadOutlined />} onClick={run('excel')} loading={excel.isPending || (isExcel && generating)}>
                {t('reports.outputs.excel')}
              </Button>
              <Button variant="contained" startIcon={<PictureAsPdfOutlined />} onClick={run('pdf')} loading={!isExcel && generating}>
                {t('reports.outputs.pdf')}
              </Button>
            </Stack>
          </Stack>
        </Paper>
      </Box>
      {saving && (
        <SaveDialog
          request={requestFromForm(getValues())}
          configurations={configurations}
          initialName={loadedName}
          onSaved={(name) => {
            setSaving(false)
            setLoadedName(name)
            setNotice(t('reports.save.saved', { name }))
          }}
          onRefused={(error) => {
            setSaving(false)
            showRefusal(error)
          }}
          onClose={() => setSaving(false)}
        />
      )}
      {paths && <PathsDialog paths={paths} onClose={() => setPaths(undefined)} />}
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </DatesLocalization>
  )
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = useId()
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 2, md: 2.5 }, height: '100%' }}>
      <Typography id={id} variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      <Stack spacing={2}>{children}</Stack>
    </Paper>
  )
}

/** The learners or groups picker; the rule 'at least one learner or group' shows under the learners. */
function PeopleField({ control, name, label }: { control: Control<ReportForm>; name: 'learners' | 'groups'; label: string }) {
  const message = useMessage()
  return (
    <Controller
      control={control}
      name={name}
      // Choosing a group answers the rule shown under the learners, and the other way round.
      rules={{ deps: [name === 'learners' ? 'groups' : 'learners'] }}
      render={({ field, fieldState }) => (
        <SearchPicker
          of={name === 'learners' ? 'people' : 'groups'}
          multiple
          label={label}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={fieldState.error !== undefined}
          helperText={message(fieldState.error?.message) ?? ' '}
        />
      )}
    />
  )
}

type SwitchName = 'displayExternalIds' | 'learnerSignature' | 'managerSignature'

function SwitchField({ control, name, label }: { control: Control<ReportForm>; name: SwitchName; label: string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControlLabel control={<Switch checked={field.value} onChange={(event) => field.onChange(event.target.checked)} slotProps={{ input: { ref: field.ref } }} />} label={label} />
      )}
    />
  )
}
