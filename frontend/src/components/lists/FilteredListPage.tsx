/**
 * FilteredListPage: a filtered, sorted list of any entity type, paged 50 at a time with infinite scroll.
 *
 * Address (bookmarkable and shareable): `basePath/<filter>` (the filter text, URL-encoded, absent when
 * there is none; the route declares it as `basePath/:filter?`), `?sorting=<sort text>`,
 * `?applyDefaultFilter=true` (the user's default saved filter replaces the address's filter, then the
 * address is replaced), `?target=<id>` (pages load until that item is there, then it is scrolled to).
 *
 * Props:
 * - entityType: the query-language entity type ("user", "subject", …).
 * - basePath: the list's path without the filter, e.g. "/subjects".
 * - listKey: the TanStack Query key prefix of the list's pages, e.g. ['subjects', 'list']; invalidate it
 *   after a change to the listed items.
 * - fetchPage({ filter, sort, page, pageSize }): one page, usually POST /<entity>/query.
 * - itemKey(item): the item's id; renderItem(item, { targeted }): its card.
 * - fieldLabel(field), enumLabel?(field, value): how fields and enum values read.
 * - sources?: ValueSources by field name, for id and location criteria.
 * - title?: the page title (omit it when the list sits under a header of its own).
 * - actions?: buttons beside the title, or at the end of the toolbar when there is no title.
 * - emptyText?: shown when nothing matches (a generic text otherwise).
 * - countText?(count): the total shown in the toolbar (a generic text otherwise).
 * - target?: the item to reach, instead of `?target=`.
 *
 * A filter the server refuses opens the editor on its text with the error, instead of the error dialog.
 */
import FilterList from '@mui/icons-material/FilterList'
import Alert from '@mui/material/Alert'
import Badge from '@mui/material/Badge'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Collapse from '@mui/material/Collapse'
import LinearProgress from '@mui/material/LinearProgress'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Loading } from '../Loading'
import { PageHeader } from '../PageHeader'
import { parseQuery, savedFiltersQuery } from '../../lib/querylang/api'
import { queryTextError } from '../../lib/querylang/errors'
import { treeToRows } from '../../lib/querylang/rows'
import { defaultFilter } from '../../lib/querylang/savedFilters'
import type { ListPage, ListQuery, ValueId } from '../../lib/querylang/types'
import { useListAddress } from './address'
import { FilterSummary } from './FilterSummary'
import { InfiniteList } from './InfiniteList'
import { useListMessage } from './messages'
import { SavedFiltersMenu } from './SavedFiltersMenu'
import { SortControl } from './SortControl'
import type { FieldLabels, ValueSources } from './types'

/** The specification's list page size (part 1, §9). */
export const PAGE_SIZE = 50

/** Loaded when the user opens it: the editor and its date pickers are not needed to read a list. */
const FilterEditor = lazy(async () => ({ default: (await import('./FilterEditor')).FilterEditor }))

export interface FilteredListPageProps<T> extends FieldLabels {
  entityType: string
  basePath: string
  listKey: readonly unknown[]
  fetchPage: (query: ListQuery) => Promise<ListPage<T>>
  itemKey: (item: T) => ValueId
  renderItem: (item: T, state: { targeted: boolean }) => ReactNode
  sources?: ValueSources
  title?: string
  actions?: ReactNode
  emptyText?: string
  countText?: (count: number) => string
  target?: ValueId
}

const EDITOR_ID = 'list-filter-editor'

export function FilteredListPage<T>({
  entityType,
  basePath,
  listKey,
  fetchPage,
  itemKey,
  renderItem,
  sources,
  title,
  actions,
  emptyText,
  countText,
  target: targetProp,
  fieldLabel,
  enumLabel,
}: FilteredListPageProps<T>) {
  const { t } = useTranslation()
  const message = useListMessage()
  const { filter, sorting, applyDefault, target: targetParam, show } = useListAddress(basePath)
  const target = targetProp ?? targetParam
  const [opened, setOpened] = useState<boolean>()
  const [missingTarget, setMissingTarget] = useState<ValueId>()

  const saved = useQuery({ ...savedFiltersQuery, enabled: applyDefault })
  useEffect(() => {
    if (!applyDefault || saved.isPending) return
    const chosen = defaultFilter(saved.data?.[entityType] ?? [])
    show(chosen ? { filter: chosen.filter, sorting: chosen.sorting } : { filter, sorting }, { replace: true })
  }, [applyDefault, saved.isPending, saved.data, entityType, filter, sorting, show])

  const parsedFilter = useQuery(parseQuery(entityType, filter))
  const parsedSort = useQuery(parseQuery(entityType, '', sorting))
  const filterError = queryTextError(parsedFilter.error)
  const sortError = queryTextError(parsedSort.error)

  const list = useInfiniteQuery({
    queryKey: [...listKey, filter, sorting],
    queryFn: ({ pageParam }) => fetchPage({ filter, sort: sorting, page: pageParam, pageSize: PAGE_SIZE }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.totalItems ? pages.length + 1 : undefined),
    enabled: !applyDefault,
    placeholderData: keepPreviousData,
    meta: { handledStatuses: [400] },
  })
  const items = list.data?.pages.flatMap((page) => page.results) ?? []
  const total = list.data?.pages.at(-1)?.totalItems
  const listError = list.isError && !filterError && !sortError ? queryTextError(list.error) : undefined

  const editorOpen = opened ?? filterError !== undefined
  const criteria = parsedFilter.data ? (treeToRows(parsedFilter.data.filter)?.rows.length ?? 1) : 0
  const currentProblem = filter === '' ? 'atLeastOneCriterion' : filterError || sortError ? 'filterHasErrors' : undefined
  const labels = { fieldLabel, enumLabel }

  return (
    <>
      {title && <PageHeader title={title} actions={actions} />}
      <Stack spacing={2}>
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1.5 }}>
          <Button
            variant={editorOpen ? 'contained' : 'outlined'}
            startIcon={
              <Badge badgeContent={criteria} color={editorOpen ? 'secondary' : 'primary'} slotProps={{ badge: { 'aria-hidden': true } }}>
                <FilterList />
              </Badge>
            }
            aria-expanded={editorOpen}
            aria-controls={EDITOR_ID}
            onClick={() => setOpened(!editorOpen)}
          >
            {t('lists.filter')}
          </Button>
          <SavedFiltersMenu
            entityType={entityType}
            current={{ filter, sorting }}
            currentProblem={currentProblem}
            onApply={(chosen) => show({ filter: chosen.filter, sorting: chosen.sorting })}
          />
          <Box sx={{ flexGrow: 1 }} />
          {!title && actions}
        </Stack>
        <Collapse in={editorOpen} unmountOnExit>
          <Paper id={EDITOR_ID} variant="outlined" sx={{ p: 2 }}>
            <Suspense fallback={<Loading />}>
              <FilterEditor
                entityType={entityType}
                filter={filter}
                sources={sources}
                {...labels}
                onApply={(next) => show({ filter: next, sorting })}
              />
            </Suspense>
          </Paper>
        </Collapse>
        {!editorOpen && <FilterSummary entityType={entityType} filter={filter} sources={sources} {...labels} onClear={() => show({ filter: '', sorting })} />}
        {listError && <Alert severity="error">{message(listError.message)}</Alert>}
        {missingTarget !== undefined && String(missingTarget) === String(target) && <Alert severity="info">{t('lists.targetMissing')}</Alert>}
        <Box>
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1.5 }}>
            <Typography role="status" sx={{ fontWeight: 600 }}>
              {total !== undefined && (countText ? countText(total) : t('lists.count', { count: total }))}
            </Typography>
            <SortControl entityType={entityType} sort={sorting} fieldLabel={fieldLabel} onChange={(next) => show({ filter, sorting: next })} />
          </Stack>
          <Box sx={{ height: 4, mt: 1 }}>{list.isFetching && !list.isFetchingNextPage && <LinearProgress aria-label={t('common.loading')} />}</Box>
        </Box>
        {list.isPending && filterError === undefined && <Loading />}
        {list.isSuccess && items.length === 0 && (
          <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
            {emptyText ?? t('lists.empty')}
          </Typography>
        )}
        {items.length > 0 && (
          <InfiniteList
            items={items}
            itemKey={itemKey}
            renderItem={renderItem}
            hasMore={list.hasNextPage}
            loadingMore={list.isFetchingNextPage}
            settled={list.isSuccess && !list.isPlaceholderData}
            onLoadMore={() => void list.fetchNextPage({ cancelRefetch: false })}
            target={target}
            onTargetMissing={() => setMissingTarget(target)}
          />
        )}
      </Stack>
    </>
  )
}
