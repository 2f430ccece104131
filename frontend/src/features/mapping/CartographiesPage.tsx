import MapOutlined from '@mui/icons-material/MapOutlined'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { queryKeys } from '../../api/queryKeys'
import { CARTOGRAPHIES_PATH, cartographyPath } from '../../lib/paths'
import { FilteredListPage } from '../../components/lists/FilteredListPage'
import { usePageTitle } from '../../lib/pageTitle'
import { type CartographyCard, queryCartographies } from './api'
import { MapItemCard } from './MapItemCard'
import { CARTOGRAPHY_FILTER_SOURCES } from './mapItems'

/** FilteredCartographies: the cartographies the user may see, filtered, sorted and paged by the server. */
export function CartographiesPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.cartographies'))
  const filtered = useParams().filter !== undefined
  return (
    <FilteredListPage<CartographyCard>
      entityType="cartography"
      basePath={CARTOGRAPHIES_PATH}
      listKey={queryKeys.mapping.cartographiesList}
      fetchPage={queryCartographies}
      itemKey={(cartography) => cartography.id}
      renderItem={(cartography) => (
        <MapItemCard
          icon={MapOutlined}
          name={cartography.name}
          code={cartography.code}
          to={cartographyPath(cartography.id)}
          context={cartography.context}
          cartographyId={cartography.id}
          contextLabel={t('mapping.cartography.context')}
        />
      )}
      fieldLabel={(field) => t(`mapping.cartographies.fields.${field}`)}
      sources={CARTOGRAPHY_FILTER_SOURCES}
      title={t('mapping.cartographies.title')}
      emptyText={t(filtered ? 'mapping.cartographies.noMatch' : 'mapping.cartographies.empty')}
      countText={(count) => t('mapping.cartographies.count', { count })}
    />
  )
}
