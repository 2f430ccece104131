import Add from '@mui/icons-material/Add'
import Button from '@mui/material/Button'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { queryKeys } from '../../api/queryKeys'
import { MODULE_REFERENCES_PATH, PATH_REFERENCES_PATH } from '../../lib/paths'
import { FilteredListPage } from '../../components/lists/FilteredListPage'
import { usePageTitle } from '../../lib/pageTitle'
import { entityTypeOf, queryReferences, type ReferenceCard, type ReferenceType } from './api'
import { ReferenceCardView } from './ReferenceCardView'
import { ReferenceDialog } from './ReferenceDialog'

const BASE_PATHS: Record<ReferenceType, string> = { module: MODULE_REFERENCES_PATH, path: PATH_REFERENCES_PATH }

/** A reference list (spec 2 §2): filtered and sorted on code, label and disabled; a card opens its dialog. */
function ReferencesPage({ type }: { type: ReferenceType }) {
  const { t } = useTranslation()
  usePageTitle(t(`references.${type}.title`))
  // undefined: no dialog; null: a new reference; a code: that reference.
  const [opened, setOpened] = useState<string | null>()
  return (
    <>
      <FilteredListPage<ReferenceCard>
        entityType={entityTypeOf(type)}
        basePath={BASE_PATHS[type]}
        listKey={queryKeys.references.list(type)}
        fetchPage={queryReferences(type)}
        itemKey={(reference) => reference.code}
        renderItem={(reference, { targeted }) => <ReferenceCardView reference={reference} targeted={targeted} onOpen={() => setOpened(reference.code)} />}
        fieldLabel={(field) => t(`references.fields.${field}`)}
        title={t(`references.${type}.title`)}
        emptyText={t('references.list.empty')}
        countText={(count) => t('references.list.count', { count })}
        actions={
          <Button variant="contained" startIcon={<Add />} onClick={() => setOpened(null)}>
            {t('references.list.add')}
          </Button>
        }
      />
      {opened !== undefined && <ReferenceDialog type={type} code={opened} onClose={() => setOpened(undefined)} />}
    </>
  )
}

export const ModuleReferencesPage = () => <ReferencesPage type="module" />
export const PathReferencesPage = () => <ReferencesPage type="path" />
