import BadgeOutlined from '@mui/icons-material/BadgeOutlined'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { queryKeys } from '../../api/queryKeys'
import { FUNCTIONS_PATH, functionPath } from '../../lib/paths'
import { FilteredListPage } from '../../components/lists/FilteredListPage'
import { usePageTitle } from '../../lib/pageTitle'
import { type FunctionCard, queryFunctions } from './api'
import { MapItemCard } from './MapItemCard'
import { FUNCTION_FILTER_SOURCES } from './mapItems'

/** FilteredFunctions: the functions of the cartographies the user may see, filtered, sorted and paged by the server. */
export function FunctionsPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.functions'))
  const filtered = useParams().filter !== undefined
  return (
    <FilteredListPage<FunctionCard>
      entityType="function"
      basePath={FUNCTIONS_PATH}
      listKey={queryKeys.mapping.functionsList}
      fetchPage={queryFunctions}
      itemKey={(fn) => fn.id}
      renderItem={(fn) => (
        <MapItemCard
          icon={BadgeOutlined}
          name={fn.name}
          code={fn.code}
          to={functionPath(fn.id)}
          context={fn.context}
          cartographyId={fn.cartographyId}
          contextLabel={t('mapping.functions.context')}
        />
      )}
      fieldLabel={(field) => t(`mapping.functions.fields.${field}`)}
      sources={FUNCTION_FILTER_SOURCES}
      title={t('mapping.functions.title')}
      emptyText={t(filtered ? 'mapping.functions.noMatch' : 'mapping.functions.empty')}
      countText={(count) => t('mapping.functions.count', { count })}
    />
  )
}
