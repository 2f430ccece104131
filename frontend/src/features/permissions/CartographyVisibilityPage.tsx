import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import FormControlLabel from '@mui/material/FormControlLabel'
import MenuItem from '@mui/material/MenuItem'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useBlocker, useSearchParams } from 'react-router'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { Loading } from '../../components/Loading'
import { Notice } from '../../components/Notice'
import { PageHeader } from '../../components/PageHeader'
import { usePageTitle } from '../../lib/pageTitle'
import { type AllowedItems, allowedItemsQuery, cartographiesTreeQuery, groupPermissionsQuery, type TreeNode, useSaveAllowedItems } from './api'
import { type Draft, cartographyState, draftOf, indexOf, isDirty, isSavable, otherItems, payloadOf, startLimiting } from './visibility'
import { VisibilityTree } from './VisibilityTree'

const GROUP_PARAM = 'groupId'

/**
 * Which cartographies and items each group may see (spec part 1, §2 and §6): choose a group, switch its
 * restriction, tick cartographies (seen whole) or some of their functions and activities (the
 * cartography limited to them), save. Unsaved changes are confirmed before switching group or leaving.
 */
export function CartographyVisibilityPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.visibility'))
  const groups = useQuery(groupPermissionsQuery)
  const tree = useQuery(cartographiesTreeQuery)
  const [search, setSearch] = useSearchParams()
  const groupId = Number(search.get(GROUP_PARAM)) || undefined
  // An id in the address that names no group (any more) shows no group.
  const group = groups.data?.find((g) => g.id === groupId)
  const saved = useQuery({ ...allowedItemsQuery(group?.id ?? 0), enabled: group !== undefined })
  // The edits of the chosen group; none means the screen shows what is saved.
  const [edits, setEdits] = useState<Draft>()
  const [pendingGroup, setPendingGroup] = useState<number>()
  const [notice, setNotice] = useState<string>()
  const save = useSaveAllowedItems()

  const draft = edits ?? (saved.data && draftOf(saved.data))
  const dirty = !!(draft && saved.data && isDirty(draft, saved.data))

  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname)
  useEffect(() => {
    if (!dirty) return
    const warn = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [dirty])

  const showGroup = (id: number) => {
    setEdits(undefined)
    setPendingGroup(undefined)
    setSearch({ [GROUP_PARAM]: String(id) })
  }
  const chooseGroup = (id: number) => {
    if (id === groupId) return
    if (dirty) setPendingGroup(id)
    else showGroup(id)
  }

  if (!groups.data || !tree.data) return groups.isError || tree.isError ? null : <Loading />

  return (
    <>
      <PageHeader
        title={t('visibility.title')}
        actions={
          group && (
            <Stack direction="row" spacing={1}>
              <Button disabled={!dirty || save.isPending} onClick={() => setEdits(undefined)}>
                {t('visibility.revert')}
              </Button>
              <Button
                variant="contained"
                disabled={!dirty || !draft || !saved.data || !isSavable(draft, saved.data)}
                loading={save.isPending}
                onClick={() => {
                  if (!draft || !saved.data) return
                  save.mutate(
                    { groupId: group.id, body: payloadOf(draft, saved.data) },
                    {
                      onSuccess: () => {
                        setEdits(undefined)
                        setNotice(t('visibility.saved', { group: group.name }))
                      },
                    },
                  )
                }}
              >
                {t('actions.save')}
              </Button>
            </Stack>
          )
        }
      />
      <Stack spacing={2}>
        {groups.data.length === 0 ? (
          <Alert severity="error">{t('codes.emptyGroupList')}</Alert>
        ) : (
          <TextField
            select
            label={t('visibility.group')}
            value={group ? String(group.id) : ''}
            onChange={(event) => chooseGroup(Number(event.target.value))}
            sx={{ maxWidth: 420 }}
            fullWidth
            helperText={group ? undefined : t('visibility.chooseGroup')}
          >
            {groups.data.map((g) => (
              <MenuItem key={g.id} value={String(g.id)}>
                {g.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        {group && (draft && saved.data ? (
          <GroupVisibility tree={tree.data} draft={draft} saved={saved.data} onChange={setEdits} />
        ) : saved.isError ? null : (
          <Loading />
        ))}
      </Stack>
      {pendingGroup !== undefined && (
        <ConfirmDialog
          title={t('visibility.unsavedTitle')}
          message={t('visibility.unsavedMessage')}
          confirmLabel={t('visibility.continue')}
          onConfirm={() => showGroup(pendingGroup)}
          onClose={() => setPendingGroup(undefined)}
        />
      )}
      {blocker.state === 'blocked' && (
        <ConfirmDialog
          title={t('visibility.unsavedTitle')}
          message={t('visibility.unsavedMessage')}
          confirmLabel={t('visibility.continue')}
          onConfirm={() => blocker.proceed()}
          onClose={() => blocker.reset()}
        />
      )}
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </>
  )
}

interface GroupVisibilityProps {
  tree: TreeNode[]
  draft: Draft
  saved: AllowedItems
  onChange: (draft: Draft) => void
}

function GroupVisibility({ tree, draft, saved, onChange }: GroupVisibilityProps) {
  const { t } = useTranslation()
  const index = useMemo(() => indexOf(tree), [tree])
  // What the group sees: everything while unrestricted, else what is ticked.
  const shown = draft.restricted ? draft : { ...draft, cartography: index.cartographies, function: [], activity: [] }
  const seen = index.cartographies.filter((id) => cartographyState(shown, index, id) !== 'none').length
  const others = otherItems(saved).length
  return (
    <>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <FormControlLabel
          control={
            <Switch
              checked={draft.restricted}
              onChange={(event) => onChange(event.target.checked ? startLimiting(draft, saved, index) : { ...draft, restricted: false })}
            />
          }
          label={t('visibility.restricted')}
        />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {draft.restricted ? t('visibility.restrictedHint', { count: seen, total: index.cartographies.length }) : t('visibility.unrestrictedHint')}
        </Typography>
        {draft.restricted && (
          <Typography variant="body2" color="text.secondary">
            {t('visibility.itemsHint')}
          </Typography>
        )}
        {draft.restricted && others > 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('visibility.otherItems', { count: others })}
          </Typography>
        )}
        {draft.restricted && !saved.restricted && (
          <Alert severity="info" sx={{ mt: 1.5 }}>
            {t('visibility.startedFromSeen')}
          </Alert>
        )}
        {!isSavable(draft, saved) && (
          <Alert severity="warning" sx={{ mt: 1.5 }}>
            {t('visibility.nothingChecked')}
          </Alert>
        )}
      </Paper>
      <VisibilityTree tree={tree} index={index} draft={shown} editable={draft.restricted} onChange={onChange} />
    </>
  )
}
