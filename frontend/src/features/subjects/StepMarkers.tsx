import CheckCircle from '@mui/icons-material/CheckCircle'
import Speed from '@mui/icons-material/Speed'
import Visibility from '@mui/icons-material/Visibility'
import VerifiedUser from '@mui/icons-material/VerifiedUser'
import Box from '@mui/material/Box'
import Stack from '@mui/material/Stack'
import type SvgIcon from '@mui/material/SvgIcon'
import Tooltip from '@mui/material/Tooltip'
import { alpha } from '@mui/material/styles'
import { useTranslation } from 'react-i18next'
import type { SubjectSummary } from './api'
import { LEVEL_COLOURS, levelTextKey } from './criticity'
import { useLifetimeText } from './lifetime'

type Colour = 'primary' | 'success' | 'warning' | 'error' | 'accent'

function Marker({ icon: Icon, done, colour, label }: { icon: typeof SvgIcon; done: boolean; colour: Colour; label: string }) {
  return (
    <Tooltip title={label}>
      <Box
        role="img"
        aria-label={label}
        data-done={done}
        sx={(theme) => ({
          display: 'inline-flex',
          alignItems: 'center',
          justifyContent: 'center',
          width: 30,
          height: 30,
          borderRadius: '50%',
          color: done ? theme.palette[colour].main : theme.palette.grey[400],
          bgcolor: done ? alpha(theme.palette[colour].main, 0.12) : 'transparent',
          border: `1px ${done ? 'solid' : 'dashed'} ${done ? alpha(theme.palette[colour].main, 0.4) : theme.palette.grey[300]}`,
        })}
      >
        <Icon sx={{ fontSize: 18 }} />
      </Box>
    </Tooltip>
  )
}

/** The four steps of a subject: standardized, criticity, followed, resolved. */
export function StepMarkers({ subject }: { subject: SubjectSummary }) {
  const { t } = useTranslation()
  const lifetime = useLifetimeText()
  const { standardized, criticity, followed, resolved } = subject.lifetimeEvents
  const level = subject.criticityLevel
  return (
    <Stack direction="row" spacing={0.75} aria-label={t('subjects.steps')} role="group">
      <Marker
        icon={VerifiedUser}
        done={standardized !== null}
        colour="accent"
        label={t('subjects.markState', { mark: t('subjects.marks.standardized'), state: lifetime(standardized, t('subjects.marks.notStandardized')) })}
      />
      <Marker
        icon={Speed}
        done={criticity !== null && level !== null}
        colour={level ? LEVEL_COLOURS[level] : 'primary'}
        label={t('subjects.markState', { mark: t('subjects.marks.criticity'), state: t(levelTextKey(level)) })}
      />
      <Marker
        icon={Visibility}
        done={followed !== null}
        colour="primary"
        label={t('subjects.markState', { mark: t('subjects.marks.followed'), state: lifetime(followed, t('subjects.marks.notFollowed')) })}
      />
      <Marker
        icon={CheckCircle}
        done={resolved !== null}
        colour="success"
        label={t('subjects.markState', { mark: t('subjects.marks.resolved'), state: lifetime(resolved, t('subjects.marks.notResolved')) })}
      />
    </Stack>
  )
}
