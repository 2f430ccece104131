import Add from '@mui/icons-material/Add'
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { queryKeys } from '../../api/queryKeys'
import { MEDIATIONS_PATH, NEW_MEDIATION_PATH, START_MEDIATION_PATH } from '../../lib/paths'
import { FilteredListPage } from '../../components/lists/FilteredListPage'
import { usePageTitle } from '../../lib/pageTitle'
import { type MediationCard, queryMediations } from './api'
import { MEDIATION_FILTER_SOURCES } from './listSources'
import { MediationCardView } from './MediationCardView'

/** FilteredMediations: the mediations the user may read, filtered, sorted and paged by the server. */
export function MediationsPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.mediations'))
  return (
    <FilteredListPage<MediationCard>
      entityType="mediation"
      basePath={MEDIATIONS_PATH}
      listKey={queryKeys.mediations.list}
      fetchPage={queryMediations}
      itemKey={(mediation) => mediation.id}
      renderItem={(mediation, { targeted }) => <MediationCardView mediation={mediation} targeted={targeted} />}
      fieldLabel={(field) => t(`mediations.fields.${field}`)}
      enumLabel={(field, value) => (field === 'status' ? t(`mediationStatuses.${value}`) : value)}
      sources={MEDIATION_FILTER_SOURCES}
      title={t('mediations.list.title')}
      emptyText={t('mediations.list.empty')}
      countText={(count) => t('mediations.list.count', { count })}
      actions={
        <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
          <Button variant="outlined" startIcon={<PlayArrowOutlined />} component={RouterLink} to={START_MEDIATION_PATH}>
            {t('mediations.list.createAndStart')}
          </Button>
          <Button variant="contained" startIcon={<Add />} component={RouterLink} to={NEW_MEDIATION_PATH}>
            {t('mediations.list.add')}
          </Button>
        </Stack>
      }
    />
  )
}
