import Add from '@mui/icons-material/Add'
import Button from '@mui/material/Button'
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { whoAmIQuery } from '../../api/queries'
import { queryKeys } from '../../api/queryKeys'
import { NEW_SUBJECT_PATH, SUBJECTS_PATH } from '../../lib/paths'
import { FilteredListPage } from '../../components/lists/FilteredListPage'
import { Loading } from '../../components/Loading'
import { usePageTitle } from '../../lib/pageTitle'
import { mayOpen } from '../../lib/routes'
import { querySubjects, type SubjectCard, visitsQuery } from './api'
import { SUBJECT_FILTER_SOURCES } from './listSources'
import { SubjectCardView } from './SubjectCardView'
import { isUnread, visitDates } from './unread'

const ENUM_KEYS: Record<string, (value: string) => string> = {
  type: (value) => `subjects.types.${value}`,
  node_status: (value) => `subjects.nodeStatus.${value}`,
  criticity: (value) => `subjects.criticity.levels.${value}`,
}

/** FilteredSubjects: the cards need the user's visits, loaded before the list, for their unread marks. */
export function SubjectsPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.subjects'))
  const { data: visits } = useQuery(visitsQuery)
  const { data: user } = useQuery(whoAmIQuery)
  const visited = useMemo(() => visitDates(visits ?? []), [visits])
  if (!visits) return <Loading />
  return (
    <FilteredListPage<SubjectCard>
      entityType="subject"
      basePath={SUBJECTS_PATH}
      listKey={queryKeys.subjects.list}
      fetchPage={querySubjects}
      itemKey={(subject) => subject.id}
      renderItem={(subject, { targeted }) => <SubjectCardView subject={subject} unread={isUnread(subject, visited)} targeted={targeted} />}
      fieldLabel={(field) => t(`subjects.fields.${field}`)}
      enumLabel={(field, value) => (ENUM_KEYS[field] ? t(ENUM_KEYS[field](value)) : value)}
      sources={SUBJECT_FILTER_SOURCES}
      title={t('subjects.list.title')}
      emptyText={t('subjects.list.empty')}
      countText={(count) => t('subjects.list.count', { count })}
      actions={
        user &&
        mayOpen(user, NEW_SUBJECT_PATH) && (
          <Button variant="contained" startIcon={<Add />} component={RouterLink} to={NEW_SUBJECT_PATH}>
            {t('subjects.list.add')}
          </Button>
        )
      }
    />
  )
}
