import Stack from '@mui/material/Stack'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { whoAmIQuery } from '../../api/queries'
import { ForecastTable } from '../../components/dashboards/CoverageForecast'
import { SkillsMatrixButton } from '../../components/dashboards/SkillsMatrixButton'
import { LoadFailure } from '../../components/LoadFailure'
import { AuditPackButton } from '../../components/downloads/AuditPackButton'
import { Loading } from '../../components/Loading'
import { NotFoundPage } from '../../components/NotFoundPage'
import { PageHeader } from '../../components/PageHeader'
import { QualificationDashboard } from '../../components/qualifications/QualificationDashboard'
import { useDashboardShown } from '../../components/qualifications/shown'
import { usePageTitle } from '../../lib/pageTitle'
import { idParam } from '../../lib/routeParams'
import { cartographyQualificationDashboardQuery, groupQualificationDashboardQuery, userQualificationDashboardQuery } from './api'
import { BackButton } from './BackButton'
import { CoverageTable } from './CoverageTable'
import { DashboardSection } from './DashboardSection'
import { qualificationLinks } from './qualificationLinks'
import { ValidationHistory } from './ValidationTimeline'

/** CartographyQualificationDashboard (spec 2 §2, DESIGN §10): who holds the qualifications naming the cartography, and the functions' coverage. */
export function CartographyQualificationDashboardPage() {
  const cartographyId = idParam(useParams().cartographyId)
  return cartographyId === undefined ? <NotFoundPage /> : <CartographyDashboard key={cartographyId} cartographyId={cartographyId} />
}

function CartographyDashboard({ cartographyId }: { cartographyId: number }) {
  const { t } = useTranslation()
  const { data: user } = useQuery(whoAmIQuery)
  const { shown, setStates, expand } = useDashboardShown()
  const { data: dashboard, error } = useQuery(cartographyQualificationDashboardQuery(cartographyId, shown))
  const title = dashboard && t('dashboards.qualifications.cartographyTitle', { name: dashboard.cartography.name })
  usePageTitle(error ? undefined : (title ?? t('dashboards.qualifications.title')))
  // Spec 2 §8: an unknown cartography is NotFound, one hidden to the user Forbidden.
  if (error) return <LoadFailure error={error} />
  if (!dashboard || !title) return <Loading />
  return (
    <>
      <PageHeader title={title} actions={<SkillsMatrixButton cartographyId={cartographyId} />} />
      <Stack spacing={2.5}>
        <DashboardSection title={t('dashboards.qualifications.coverage')}>
          <CoverageTable coverage={dashboard.coverage} />
        </DashboardSection>
        <DashboardSection title={t('coverageForecast.title')}>
          <ForecastTable forecast={dashboard.forecast} />
        </DashboardSection>
        <DashboardSection title={t('dashboards.qualifications.holders')}>
          <QualificationDashboard
            elements={dashboard.elements}
            linkTo={qualificationLinks(user)}
            shown={shown}
            onStatesChange={setStates}
            onExpand={expand}
            headingLevel="h3"
          />
        </DashboardSection>
      </Stack>
      <BackButton />
    </>
  )
}

/** GroupQualificationDashboard (spec 2 §2): the qualifications of one group's members. */
export function GroupQualificationDashboardPage() {
  const groupId = idParam(useParams().groupId)
  return groupId === undefined ? <NotFoundPage /> : <GroupDashboard key={groupId} groupId={groupId} />
}

function GroupDashboard({ groupId }: { groupId: number }) {
  const { t } = useTranslation()
  const { data: user } = useQuery(whoAmIQuery)
  const { shown, setStates, expand } = useDashboardShown()
  const { data: dashboard, error } = useQuery(groupQualificationDashboardQuery(groupId, shown))
  const title = dashboard && t('dashboards.qualifications.groupTitle', { name: dashboard.group.name })
  usePageTitle(error ? undefined : (title ?? t('dashboards.qualifications.title')))
  if (error) return <LoadFailure error={error} />
  if (!dashboard || !title) return <Loading />
  return (
    <>
      <PageHeader title={title} />
      <QualificationDashboard elements={dashboard.elements} linkTo={qualificationLinks(user)} shown={shown} onStatesChange={setStates} onExpand={expand} />
      <BackButton />
    </>
  )
}

/**
 * UserQualificationDashboard (spec 2 §2): without a user id, the signed-in user's own status ('My
 * qualifications', no permission needed); another user's needs perm_TableauBord.
 */
export function UserQualificationDashboardPage() {
  const { t } = useTranslation()
  const param = useParams().userId
  const userId = idParam(param)
  const { data: user, isError } = useQuery(whoAmIQuery)
  if (param !== undefined && userId === undefined) return <NotFoundPage />
  if (isError) return null
  if (!user) {
    return <Loading />
  }
  // Who may see another's status is the server's rule (qualifications.policy): its 403 leads to Forbidden.
  const own = userId === undefined || userId === user.id
  return <UserDashboard key={userId ?? user.id} userId={userId ?? user.id} own={own} title={t('dashboards.qualifications.mine')} />
}

function UserDashboard({ userId, own, title: ownTitle }: { userId: number; own: boolean; title: string }) {
  const { t } = useTranslation()
  const { data: user } = useQuery(whoAmIQuery)
  const { shown, setStates, expand } = useDashboardShown()
  const { data: dashboard, error } = useQuery(userQualificationDashboardQuery(userId, shown))
  const title = own ? ownTitle : dashboard && t('dashboards.qualifications.userTitle', { name: dashboard.user.name })
  usePageTitle(error ? undefined : (title ?? t('dashboards.qualifications.title')))
  // Spec 2 §8: an unknown user is NotFound.
  if (error) return <LoadFailure error={error} />
  return (
    <>
      {title && <PageHeader title={title} actions={<AuditPackButton userId={userId} />} />}
      {!dashboard ? (
        <Loading />
      ) : (
        <QualificationDashboard
          elements={dashboard.elements}
          linkTo={qualificationLinks(user)}
          shown={shown}
          onStatesChange={setStates}
          onExpand={expand}
          childDetails={(child) => <ValidationHistory history={dashboard.history.find((history) => history.module.id === child.id)} />}
        />
      )}
      <BackButton />
    </>
  )
}
