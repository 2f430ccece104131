import Add from '@mui/icons-material/Add'
import Button from '@mui/material/Button'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { whoAmIQuery } from '../../api/queries'
import { queryKeys } from '../../api/queryKeys'
import { NEW_QUALIFICATION_PATH, QUALIFICATIONS_PATH } from '../../lib/paths'
import { mayOpen } from '../../lib/routes'
import { FilteredListPage } from '../../components/lists/FilteredListPage'
import { usePageTitle } from '../../lib/pageTitle'
import { type QualificationCard, queryQualifications } from './api'
import { QUALIFICATION_FILTER_SOURCES } from './listSources'
import { QualificationCardView } from './QualificationCardView'

/** FilteredQualifications: filters name (sortable), cartographies, groups and modules, paged by the server. */
export function QualificationsPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.qualifications'))
  const { data: user } = useQuery(whoAmIQuery)
  return (
    <FilteredListPage<QualificationCard>
      entityType="qualification"
      basePath={QUALIFICATIONS_PATH}
      listKey={queryKeys.qualifications.list}
      fetchPage={queryQualifications}
      itemKey={(qualification) => qualification.id}
      renderItem={(qualification, { targeted }) => <QualificationCardView qualification={qualification} targeted={targeted} />}
      fieldLabel={(field) => t(`qualifications.fields.${field}`, { defaultValue: field })}
      sources={QUALIFICATION_FILTER_SOURCES}
      title={t('qualifications.list.title')}
      emptyText={t('qualifications.list.empty')}
      countText={(count) => t('qualifications.list.count', { count })}
      actions={
        mayOpen(user, NEW_QUALIFICATION_PATH) ? (
          <Button variant="contained" startIcon={<Add />} component={RouterLink} to={NEW_QUALIFICATION_PATH}>
            {t('qualifications.list.add')}
          </Button>
        ) : undefined
      }
    />
  )
}
