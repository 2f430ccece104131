import Add from '@mui/icons-material/Add'
import Button from '@mui/material/Button'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { whoAmIQuery } from '../../api/queries'
import { queryKeys } from '../../api/queryKeys'
import { NEW_TRAINING_PATH_PATH, TRAINING_PATHS_PATH } from '../../lib/paths'
import { FilteredListPage } from '../../components/lists/FilteredListPage'
import { usePageTitle } from '../../lib/pageTitle'
import { mayOpen } from '../../lib/routes'
import { type PathCard, queryPaths } from './api'
import { PathCardView } from './PathCardView'
import { PATH_FILTER_SOURCES } from './listSources'

/** Fields whose values are path or module statuses, labelled as the cards and the view label them. */
const ENUM_LABELS: Record<string, string> = { status: 'trainingPaths.status', module_status: 'trainingPaths.moduleStatus', module_type: 'modules.types' }

/** FilteredTrainingPaths: the paths the user may read, filtered, sorted and paged by the server. */
export function PathsPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.trainingPaths'))
  const { data: user } = useQuery(whoAmIQuery)
  return (
    <FilteredListPage<PathCard>
      entityType="trainingPath"
      basePath={TRAINING_PATHS_PATH}
      listKey={queryKeys.trainingPaths.list}
      fetchPage={queryPaths}
      itemKey={(path) => path.id}
      renderItem={(path, { targeted }) => <PathCardView path={path} targeted={targeted} />}
      fieldLabel={(field) => t(`trainingPaths.filterFields.${field}`, { defaultValue: field })}
      enumLabel={(field, value) => (field in ENUM_LABELS ? t(`${ENUM_LABELS[field]}.${value}`, { defaultValue: value }) : value)}
      sources={PATH_FILTER_SOURCES}
      title={t('trainingPaths.list.title')}
      emptyText={t('trainingPaths.list.empty')}
      countText={(count) => t('trainingPaths.list.count', { count })}
      actions={
        mayOpen(user, NEW_TRAINING_PATH_PATH) ? (
          <Button variant="contained" startIcon={<Add />} component={RouterLink} to={NEW_TRAINING_PATH_PATH}>
            {t('trainingPaths.list.add')}
          </Button>
        ) : undefined
      }
    />
  )
}
