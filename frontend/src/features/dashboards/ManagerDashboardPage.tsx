import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import Link from '@mui/material/Link'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useNavigate } from 'react-router'
import {
  cartographyQualificationDashboardPath,
  groupQualificationDashboardPath,
  groupTrainingPathDashboardPath,
  userQualificationDashboardPath,
} from '../../lib/paths'
import { Completion } from '../../components/Completion'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { SearchPicker } from '../../components/people/SearchPicker'
import { usePageTitle } from '../../lib/pageTitle'
import { type CartographySummary, type GroupProgress, managerCartographiesQuery, trainingPathDashboardQuery } from './api'
import { DashboardSection, EmptyText } from './DashboardSection'
import { ROW_LAYOUT } from './rowLayout'

/** The coverage levels a cartography's figures show, in the order of its dashboard (gaps first), with their colours. */
const COVERAGE = [
  { level: 'none', colour: 'error' },
  { level: 'single', colour: 'warning' },
  { level: 'covered', colour: 'success' },
] as const

const LIST_SX = { listStyle: 'none', m: 0, p: 0 } as const
// The section draws the frame: its rows need no margin of their own.
const ROW_SX = { ...ROW_LAYOUT, px: 0, '&:first-of-type': { borderTop: 0, pt: 0 }, '&:last-of-type': { pb: 0 } }

/**
 * The Dashboard manager (spec 1 §2 drawer, docs/qualifications.md): where a holder of perm_TableauBord
 * starts from: a person's qualification status; the cartographies with the figures of their
 * qualification dashboards (the gaps first); the groups with their path progress, leading to each
 * group's path progress and qualifications.
 */
export function ManagerDashboardPage() {
  const { t } = useTranslation()
  const groups = useQuery(trainingPathDashboardQuery)
  const cartographies = useQuery(managerCartographiesQuery)
  const error = groups.error ?? cartographies.error
  usePageTitle(error ? undefined : t('dashboards.manager.title'))
  if (error) return <LoadFailure error={error} />
  return (
    <>
      <PageHeader title={t('dashboards.manager.title')} />
      <Stack spacing={2.5}>
        <PersonSection />
        <DashboardSection title={t('dashboards.manager.cartographies')}>
          {!cartographies.data ? <Loading /> : <Cartographies cartographies={cartographies.data} />}
        </DashboardSection>
        <DashboardSection title={t('dashboards.manager.groups')}>
          {!groups.data ? <Loading /> : <Groups groups={groups.data.groups} />}
        </DashboardSection>
      </Stack>
    </>
  )
}

/** Choosing a person opens their qualification status. */
function PersonSection() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <DashboardSection title={t('dashboards.manager.person')}>
      <Box sx={{ maxWidth: 480 }}>
        <SearchPicker
          of="people"
          label={t('dashboards.manager.personPicker')}
          helperText={t('dashboards.manager.personHelp')}
          value={null}
          onChange={(person) => {
            if (person) void navigate(userQualificationDashboardPath(person.id))
          }}
        />
      </Box>
    </DashboardSection>
  )
}

function Groups({ groups }: { groups: GroupProgress[] }) {
  const { t } = useTranslation()
  if (groups.length === 0) return <EmptyText>{t('dashboards.trainingPath.noGroup')}</EmptyText>
  return (
    <Box component="ul" aria-label={t('dashboards.manager.groups')} sx={LIST_SX}>
      {groups.map((group) => (
        <Box component="li" key={group.id} sx={ROW_SX}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {group.name}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('dashboards.trainingPath.membersWithPaths', { count: group.users, withPaths: group.withPaths })}
            </Typography>
          </Box>
          <Completion of={group} label={t('dashboards.trainingPath.averageOf', { name: group.name })} />
          <Box sx={{ display: 'flex', columnGap: 2.5, rowGap: 0.5, flexWrap: 'wrap' }}>
            {/* Each link names its group: a list of 'Paths progress' links would not tell them apart. */}
            <Link
              component={RouterLink}
              to={groupTrainingPathDashboardPath(group.id)}
              underline="hover"
              aria-label={t('dashboards.groupTrainingPath.title', { name: group.name })}
            >
              {t('dashboards.trainingPath.title')}
            </Link>
            <Link
              component={RouterLink}
              to={groupQualificationDashboardPath(group.id)}
              underline="hover"
              aria-label={t('dashboards.qualifications.groupTitle', { name: group.name })}
            >
              {t('dashboards.qualifications.holders')}
            </Link>
          </Box>
        </Box>
      ))}
    </Box>
  )
}

function Cartographies({ cartographies }: { cartographies: CartographySummary[] }) {
  const { t } = useTranslation()
  if (cartographies.length === 0) return <EmptyText>{t('dashboards.manager.noCartography')}</EmptyText>
  return (
    <Box component="ul" aria-label={t('dashboards.manager.cartographies')} sx={LIST_SX}>
      {cartographies.map((cartography) => {
        const functions = COVERAGE.filter(({ level }) => cartography.functions[level] > 0)
        const { underMinimum } = cartography.functions
        return (
          <Box component="li" key={cartography.id} sx={ROW_SX}>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                <Link component={RouterLink} to={cartographyQualificationDashboardPath(cartography.id)} underline="hover">
                  {cartography.name}
                </Link>
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {cartography.siteName}
              </Typography>
            </Box>
            <Typography variant="body2">{t('dashboards.manager.qualificationCount', { count: cartography.qualifications })}</Typography>
            {functions.length === 0 ? (
              <EmptyText>{t('dashboards.manager.noFunction')}</EmptyText>
            ) : (
              <Box component="ul" aria-label={t('dashboards.manager.coverageOf', { name: cartography.name })} sx={{ ...LIST_SX, display: 'flex', gap: 0.75, flexWrap: 'wrap' }}>
                {functions.map(({ level, colour }) => (
                  <Box component="li" key={level}>
                    <Chip
                      size="small"
                      variant="outlined"
                      data-level={level}
                      label={t(`dashboards.manager.functions.${level}`, { count: cartography.functions[level] })}
                      sx={{ color: `${colour}.text`, borderColor: `${colour}.main`, fontWeight: 600 }}
                    />
                  </Box>
                ))}
                {underMinimum > 0 && (
                  <Box component="li">
                    <Chip
                      size="small"
                      data-under-minimum
                      label={t('dashboards.manager.functions.underMinimum', { count: underMinimum })}
                      sx={{ color: 'error.contrastText', bgcolor: 'error.dark', fontWeight: 600 }}
                    />
                  </Box>
                )}
              </Box>
            )}
          </Box>
        )
      })}
    </Box>
  )
}
