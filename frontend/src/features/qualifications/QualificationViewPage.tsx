import ArrowBack from '@mui/icons-material/ArrowBack'
import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import EditOutlined from '@mui/icons-material/EditOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Divider from '@mui/material/Divider'
import Grid from '@mui/material/Grid'
import Link from '@mui/material/Link'
import Stack from '@mui/material/Stack'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useNavigate, useParams } from 'react-router'
import { whoAmIQuery } from '../../api/queries'
import {
  cartographyPath,
  cartographyQualificationDashboardPath,
  editQualificationPath,
  groupQualificationDashboardPath,
  QUALIFICATIONS_PATH,
  qualificationPath,
  trainingModulePath,
  userQualificationDashboardPath,
  TRAINING_MODULES_PATH,
} from '../../lib/paths'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { DiscussionPanel } from '../../components/discussion/DiscussionPanel'
import { ResourceGallery } from '../../components/gallery/ResourceGallery'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { QualificationDashboard } from '../../components/qualifications/QualificationDashboard'
import { useDashboardShown } from '../../components/qualifications/shown'
import type { DashboardLink } from '../../components/qualifications/types'
import { Section } from '../../components/Section'
import { formatDateTime } from '../../lib/dates'
import { usePageTitle } from '../../lib/pageTitle'
import { mayOpen } from '../../lib/routes'
import { idParam } from '../../lib/routeParams'
import { type DashboardBy, type Qualification, qualificationDashboardQuery, qualificationQuery, useDeleteQualification, useForgetQualification } from './api'

/** ViewQualification, /qualification/view/:qualificationId (spec 2 §2 Qualifications). */
export function QualificationViewPage() {
  const qualificationId = idParam(useParams().qualificationId)
  // Keyed by id: another qualification is a fresh page, read again from the server.
  return qualificationId === undefined ? <NotFoundPage /> : <LoadedQualification key={qualificationId} qualificationId={qualificationId} />
}

function LoadedQualification({ qualificationId }: { qualificationId: number }) {
  const { data: qualification, error } = useQuery(qualificationQuery(qualificationId))
  usePageTitle(error ? undefined : qualification?.name)
  // Spec 2 §8: a failed load goes to NotFound (Forbidden on 403).
  if (error) return <LoadFailure error={error} />
  if (!qualification) return <Loading />
  return <QualificationView qualification={qualification} />
}

function QualificationView({ qualification }: { qualification: Qualification }) {
  const { t, i18n } = useTranslation()
  const { data: user } = useQuery(whoAmIQuery)
  // The module pages need perm_TrainingManagement: the others read module names only.
  const linkToModules = mayOpen(user, TRAINING_MODULES_PATH)
  const { can } = qualification
  return (
    <>
      <Stack direction="row" sx={{ alignItems: 'center', columnGap: 1.5, rowGap: 1, mb: 3, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, minWidth: 0, overflowWrap: 'anywhere' }}>
          {qualification.name}
        </Typography>
        <DiscussionPanel discussionId={qualification.discussionId} />
      </Stack>

      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, md: 6 }} sx={{ minWidth: 0 }}>
          <Section sx={QUALIFICATION_SECTION} title={t('qualifications.fields.cartographies')}>
            <NamedList
              items={qualification.cartographies.map((cartography) => ({
                id: cartography.id,
                content: (
                  <>
                    <Link component={RouterLink} to={cartographyPath(cartography.id)} underline="hover">
                      {cartography.name}
                    </Link>
                    <Typography component="span" variant="body2" color="text.secondary">
                      {t('qualifications.view.site', { site: cartography.siteName })}
                    </Typography>
                    {can.seeDashboard && (
                      <Link component={RouterLink} to={cartographyQualificationDashboardPath(cartography.id)} variant="body2" underline="hover">
                        {t('qualifications.view.cartographyDashboard')}
                      </Link>
                    )}
                  </>
                ),
              }))}
              empty={t('qualifications.view.noCartography')}
            />
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }} sx={{ minWidth: 0 }}>
          <Section sx={QUALIFICATION_SECTION} title={t('qualifications.fields.qualifiableGroups')}>
            <NamedList
              items={qualification.qualifiableGroups.map((group) => ({
                id: group.id,
                content: can.seeDashboard ? (
                  <Link component={RouterLink} to={groupQualificationDashboardPath(group.id)} underline="hover">
                    {group.name}
                  </Link>
                ) : (
                  group.name
                ),
              }))}
              empty={t('qualifications.view.noGroup')}
            />
          </Section>
        </Grid>
        <Grid size={12} sx={{ minWidth: 0 }}>
          <Section sx={QUALIFICATION_SECTION} title={t('qualifications.fields.modules')}>
            <NamedList
              items={qualification.modules.map((module) => ({
                id: module.id,
                content: (
                  <>
                    {linkToModules ? (
                      <Link component={RouterLink} to={trainingModulePath(module.id)} underline="hover">
                        {module.name}
                      </Link>
                    ) : (
                      module.name
                    )}
                    <Typography component="span" variant="body2" color="text.secondary">
                      {module.periodicity > 0 ? t('qualifications.view.periodicity', { count: module.periodicity }) : t('qualifications.view.notPeriodic')}
                    </Typography>
                    {!module.enabled && <Chip size="small" variant="outlined" label={t('qualifications.view.disabled')} />}
                  </>
                ),
              }))}
              empty={t('qualifications.view.noModule')}
            />
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }} sx={{ minWidth: 0 }}>
          <Section sx={QUALIFICATION_SECTION} title={t('qualifications.view.functions')}>
            <NamedList
              items={qualification.functions.map((fn) => ({
                id: fn.id,
                content: (
                  <>
                    {fn.name}
                    <Typography component="span" variant="body2" color="text.secondary">
                      {qualification.cartographies.find((cartography) => cartography.id === fn.cartographyId)?.name}
                    </Typography>
                  </>
                ),
              }))}
              empty={t('qualifications.view.noFunction')}
            />
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }} sx={{ minWidth: 0 }}>
          <Section sx={QUALIFICATION_SECTION} title={t('qualifications.view.requalification')}>
            <Typography>
              {qualification.requalificationWindowDays > 0
                ? t('qualifications.view.requalificationWindow', { count: qualification.requalificationWindowDays })
                : t('qualifications.view.requalificationOff')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
              {qualification.defaultReferents.length > 0
                ? t('qualifications.view.defaultReferents', { names: qualification.defaultReferents.map((person) => person.name).join(', ') })
                : t('qualifications.view.noDefaultReferent')}
            </Typography>
          </Section>
        </Grid>
        {/* The gallery keeps its own bottom margin elsewhere; here the grid spaces the blocks. */}
        <Grid size={12} sx={{ minWidth: 0, '& > section': { mb: 0 } }}>
          <ResourceGallery parentType="qualification" parentId={qualification.id} />
        </Grid>
        {can.seeDashboard && (
          <Grid size={12} sx={{ minWidth: 0 }}>
            <DashboardSection qualificationId={qualification.id} linkToModules={linkToModules} />
          </Grid>
        )}
      </Grid>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        {t('qualifications.view.createdBy', { user: qualification.creation.userName, date: formatDateTime(qualification.creation.date, i18n.language) })}
      </Typography>

      <Divider sx={{ my: 3 }} />
      <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }} role="group" aria-label={t('common.actions')}>
        <Button component={RouterLink} to={QUALIFICATIONS_PATH} startIcon={<ArrowBack />}>
          {t('qualifications.view.backToList')}
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        <QualificationActions qualification={qualification} />
      </Stack>
    </>
  )
}

/** Edit and Delete, for qualification administrators (the server's `can`); Delete asks first. */
export function QualificationActions({ qualification }: { qualification: Qualification }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [confirming, setConfirming] = useState(false)
  const remove = useDeleteQualification()
  const forget = useForgetQualification()
  return (
    <>
      {qualification.can.edit && (
        <Button variant="outlined" startIcon={<EditOutlined />} component={RouterLink} to={editQualificationPath(qualification.id)}>
          {t('actions.edit')}
        </Button>
      )}
      {qualification.can.delete && (
        <Button variant="outlined" color="error" startIcon={<DeleteOutline />} onClick={() => setConfirming(true)}>
          {t('actions.delete')}
        </Button>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('qualifications.view.deleteTitle')}
          message={t('qualifications.view.deleteMessage', { name: qualification.name })}
          confirmLabel={t('actions.delete')}
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(qualification.id, {
              onSuccess: async () => {
                await navigate(QUALIFICATIONS_PATH)
                forget(qualification.id)
              },
              onSettled: () => setConfirming(false),
            })
          }
          onClose={() => setConfirming(false)}
        />
      )}
    </>
  )
}

/** The qualification's dashboard (perm_TableauBord): its people with their modules, or its modules with their people. */
function DashboardSection({ qualificationId, linkToModules }: { qualificationId: number; linkToModules: boolean }) {
  const { t } = useTranslation()
  const [by, setBy] = useState<DashboardBy>('user')
  const { shown, setStates, expand } = useDashboardShown()
  const { data: elements, error } = useQuery(qualificationDashboardQuery(qualificationId, by, shown))
  const linkTo = (link: DashboardLink): string | undefined => {
    switch (link.type) {
      case 'user':
        return userQualificationDashboardPath(link.id)
      case 'module':
        return linkToModules ? trainingModulePath(link.id) : undefined
      case 'qualification':
        return qualificationPath(link.id)
      case 'group':
        return groupQualificationDashboardPath(link.id)
      case 'cartography':
        return cartographyQualificationDashboardPath(link.id)
    }
  }
  return (
    <Section
      sx={QUALIFICATION_SECTION}
      title={t('qualifications.view.dashboard')}
      action={
        <ToggleButtonGroup
          exclusive
          size="small"
          value={by}
          onChange={(_event, value: DashboardBy | null) => value && setBy(value)}
          aria-label={t('qualifications.view.dashboardBy')}
        >
          <ToggleButton value="user" sx={{ textTransform: 'none' }}>
            {t('qualifications.view.byUser')}
          </ToggleButton>
          <ToggleButton value="module" sx={{ textTransform: 'none' }}>
            {t('qualifications.view.byModule')}
          </ToggleButton>
        </ToggleButtonGroup>
      }
    >
      {error ? (
        <Typography color="text.secondary">{t('qualifications.view.dashboardFailed')}</Typography>
      ) : elements ? (
        <QualificationDashboard elements={elements} linkTo={linkTo} shown={shown} onStatesChange={setStates} onExpand={expand} headingLevel="h3" />
      ) : (
        <Loading />
      )}
    </Section>
  )
}

/** The page's blocks sit side by side in a grid, each as tall as its row. */
const QUALIFICATION_SECTION = { px: { xs: 1.5, sm: 2.5 }, height: '100%', boxSizing: 'border-box' } as const

function NamedList({ items, empty }: { items: { id: number; content: ReactNode }[]; empty: string }) {
  if (items.length === 0) return <Typography color="text.secondary">{empty}</Typography>
  return (
    <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
      {items.map((item) => (
        <Box component="li" key={item.id} sx={{ py: 0.25, overflowWrap: 'anywhere' }}>
          <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1 }}>
            {item.content}
          </Box>
        </Box>
      ))}
    </Box>
  )
}
