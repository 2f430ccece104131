import Add from '@mui/icons-material/Add'
import Button from '@mui/material/Button'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { queryKeys } from '../../api/queryKeys'
import { NEW_TRAINING_MODULE_PATH, TRAINING_MODULES_PATH } from '../../lib/paths'
import { FilteredListPage } from '../../components/lists/FilteredListPage'
import { usePageTitle } from '../../lib/pageTitle'
import { type ModuleCard, queryModules } from './api'
import { MODULE_FILTER_SOURCES } from './listSources'
import { ModuleCardView } from './ModuleCardView'

/** FilteredTrainingModules: the modules, filtered, sorted and paged by the server. */
export function ModulesPage() {
  const { t } = useTranslation()
  usePageTitle(t('modules.list.title'))
  return (
    <FilteredListPage<ModuleCard>
      entityType="trainingModule"
      basePath={TRAINING_MODULES_PATH}
      listKey={queryKeys.modules.list}
      fetchPage={queryModules}
      itemKey={(module) => module.id}
      renderItem={(module, { targeted }) => <ModuleCardView module={module} targeted={targeted} />}
      fieldLabel={(field) => t(`modules.filterFields.${field}`, { defaultValue: field })}
      enumLabel={(field, value) => (field === 'module_type' ? t(`modules.types.${value}`) : field === 'item_type' ? t(`modules.kinds.${value}`) : value)}
      sources={MODULE_FILTER_SOURCES}
      title={t('modules.list.title')}
      emptyText={t('modules.list.empty')}
      countText={(count) => t('modules.list.count', { count })}
      actions={
        <Button variant="contained" startIcon={<Add />} component={RouterLink} to={NEW_TRAINING_MODULE_PATH}>
          {t('modules.list.add')}
        </Button>
      }
    />
  )
}
