import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import FormControlLabel from '@mui/material/FormControlLabel'
import Radio from '@mui/material/Radio'
import RadioGroup from '@mui/material/RadioGroup'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isApiError } from '../../api/errors'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { Section } from '../../components/Section'
import { useMessage } from '../../lib/messages'
import { usePageTitle } from '../../lib/pageTitle'
import { KIND_GROUPS, type Mode, MODES, type Preference, preferencesQuery, useSavePreferences } from './api'

/**
 * The messages Spot e-mails the signed-in person, by kind, gathered by what they are about: each
 * received immediately, in the daily digest, or not at all (the bell still shows them). What the
 * person chose stays on the page when a save is refused.
 */
export function NotificationPreferencesPage() {
  const { t } = useTranslation()
  const title = t('notifications.title')
  usePageTitle(title)
  const { data, isError } = useQuery(preferencesQuery)
  return (
    <>
      <PageHeader title={title} />
      {data ? <PreferencesForm title={title} preferences={data.preferences} address={data.address ?? null} /> : !isError && <Loading />}
    </>
  )
}

function PreferencesForm({ title, preferences, address }: { title: string; preferences: Preference[]; address: string | null }) {
  const { t } = useTranslation()
  const message = useMessage()
  const save = useSavePreferences()
  // What the person chose on the page, by kind; the server's answer until they change something.
  const [chosen, setChosen] = useState<Record<string, Mode>>({})
  const [notice, setNotice] = useState<string>()
  const [refusal, setRefusal] = useState<string>()
  const modeOf = (preference: Preference): Mode => chosen[preference.kind] ?? preference.mode
  const changes = preferences.filter((preference) => modeOf(preference) !== preference.mode)

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setRefusal(undefined)
    save.mutate(
      preferences.map((preference) => ({ kind: preference.kind, mode: modeOf(preference) })),
      {
        onSuccess: () => {
          setChosen({})
          setNotice(t('notifications.saved'))
        },
        onError: (error) => {
          if (isApiError(error)) setRefusal(message(error.errors[0]?.code ?? error.message))
        },
      },
    )
  }

  return (
    <form onSubmit={submit} noValidate aria-label={title}>
      <Stack spacing={2} sx={{ maxWidth: 900 }}>
        <Typography variant="body2" color="text.secondary">
          {t('notifications.hint')}
        </Typography>
        {address ? (
          <Typography variant="body2">{t('notifications.address', { address })}</Typography>
        ) : (
          <Alert severity="warning" role="status">
            {t('notifications.noAddress')}
          </Alert>
        )}
        {KIND_GROUPS.map((group) => {
          const kinds = preferences.filter((preference) => preference.group === group)
          if (kinds.length === 0) return null
          return (
            <Section key={group} title={t(`notifications.groups.${group}`)}>
              <Stack spacing={1.5}>
                {kinds.map((preference) => (
                  <KindChoice
                    key={preference.kind}
                    preference={preference}
                    mode={modeOf(preference)}
                    onChange={(mode) => {
                      setNotice(undefined)
                      setChosen((current) => ({ ...current, [preference.kind]: mode }))
                    }}
                  />
                ))}
              </Stack>
            </Section>
          )
        })}
        {refusal && (
          <Alert severity="error" role="alert">
            {refusal}
          </Alert>
        )}
        {/* Said on the page rather than in a passing notice: it stays until the next change. */}
        {notice && (
          <Alert severity="success" role="status" onClose={() => setNotice(undefined)}>
            {notice}
          </Alert>
        )}
        <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
          <Button disabled={changes.length === 0 || save.isPending} onClick={() => setChosen({})}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending} disabled={changes.length === 0}>
            {t('actions.save')}
          </Button>
        </Stack>
      </Stack>
    </form>
  )
}

/** One kind: its name, its default, and its three modes as radio buttons. */
function KindChoice({ preference, mode, onChange }: { preference: Preference; mode: Mode; onChange: (mode: Mode) => void }) {
  const { t, i18n } = useTranslation()
  const labelId = `notification-kind-${preference.kind}`
  const kindKey = `notifications.kinds.${preference.kind}`
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} sx={{ gap: { xs: 0, md: 2 }, alignItems: { md: 'center' } }}>
      <Stack sx={{ flex: 1, minWidth: 0 }}>
        <Typography id={labelId} variant="body1">
          {i18n.exists(kindKey) ? t(kindKey) : preference.kind}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {t('notifications.byDefault', { mode: t(`notifications.modes.${preference.default}`) })}
        </Typography>
      </Stack>
      <RadioGroup row aria-labelledby={labelId} value={mode} onChange={(_event, value) => onChange(value as Mode)}>
        {MODES.map((value) => (
          <FormControlLabel key={value} value={value} control={<Radio size="small" />} label={t(`notifications.modes.${value}`)} />
        ))}
      </RadioGroup>
    </Stack>
  )
}
