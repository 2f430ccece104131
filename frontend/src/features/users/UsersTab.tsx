import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import EditOutlined from '@mui/icons-material/EditOutlined'
import KeyOutlined from '@mui/icons-material/KeyOutlined'
import PersonAddAlt from '@mui/icons-material/PersonAddAlt'
import PersonOffOutlined from '@mui/icons-material/PersonOffOutlined'
import RestoreOutlined from '@mui/icons-material/RestoreOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import IconButton from '@mui/material/IconButton'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { InactiveMark } from '../../components/people/InactiveMark'
import { whoAmIQuery } from '../../api/queries'
import { queryKeys } from '../../api/queryKeys'
import type { User } from '../../api/types'
import { USERS_PATH } from '../../lib/paths'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { FilteredListPage } from '../../components/lists/FilteredListPage'
import { Notice } from '../../components/Notice'
import { formatDate } from '../../lib/dates'
import { fetchUsers, USER_FILTER_SOURCES, useDeleteUser, useSetActive } from './api'
import { PasswordDialog } from './PasswordDialog'
import { UserDialog } from './UserDialog'

type Action = 'edit' | 'password' | 'delete' | 'deactivate'
type Editing = { kind: 'create' } | { kind: Action; user: User }

interface UserCardProps {
  user: User
  isMe: boolean
  onEdit: (kind: Action) => void
  onReactivate: () => void
}

function UserCard({ user, isMe, onEdit, onReactivate }: UserCardProps) {
  const { t, i18n } = useTranslation()
  return (
    <Paper variant="outlined" component="article" aria-label={user.displayName} data-active={user.active} sx={{ px: 2, py: 1.25 }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ minWidth: 200, flex: '1 1 220px' }}>
          <Typography sx={{ fontWeight: 600 }}>
            {user.displayName}
            {!user.active && (
              <InactiveMark title={user.deactivatedAt ? t('users.inactiveSince', { date: formatDate(user.deactivatedAt, i18n.language) }) : undefined} />
            )}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {user.login}
            {user.externalId && ` · ${user.externalId}`}
            {user.email && ` · ${user.email}`}
          </Typography>
        </Box>
        <Stack direction="row" role="group" sx={{ flexWrap: 'wrap', gap: 0.5, flex: '2 1 240px' }} aria-label={t('users.groups')}>
          {user.groups.map((group) => (
            <Chip key={group.id} label={group.name} size="small" />
          ))}
        </Stack>
        <Box sx={{ whiteSpace: 'nowrap' }}>
          <Tooltip title={t('actions.edit')}>
            <IconButton aria-label={t('users.editLabel', { name: user.displayName })} onClick={() => onEdit('edit')}>
              <EditOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('users.changePassword')}>
            <IconButton aria-label={t('users.passwordLabel', { name: user.displayName })} onClick={() => onEdit('password')}>
              <KeyOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
          {user.active ? (
            <Tooltip title={isMe ? t('codes.cannotDeactivateYourself') : t('users.deactivate')}>
              <span>
                <IconButton aria-label={t('users.deactivateLabel', { name: user.displayName })} disabled={isMe} onClick={() => onEdit('deactivate')}>
                  <PersonOffOutlined fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
          ) : (
            <Tooltip title={t('users.reactivate')}>
              <IconButton aria-label={t('users.reactivateLabel', { name: user.displayName })} onClick={onReactivate}>
                <RestoreOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          <Tooltip title={isMe ? t('codes.cannotDeleteYourself') : t('actions.delete')}>
            <span>
              <IconButton aria-label={t('users.deleteLabel', { name: user.displayName })} disabled={isMe} onClick={() => onEdit('delete')}>
                <DeleteOutline fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        </Box>
      </Stack>
    </Paper>
  )
}

/** The users, filtered, sorted and paged by the server (POST /user/query), with their management actions. */
export function UsersTab() {
  const { t } = useTranslation()
  const { data: me } = useQuery(whoAmIQuery)
  const remove = useDeleteUser()
  const setActive = useSetActive()
  const [editing, setEditing] = useState<Editing>()
  const [notice, setNotice] = useState<string>()

  const done = (text: string) => () => {
    setEditing(undefined)
    setNotice(text)
  }

  return (
    <>
      <FilteredListPage<User>
        entityType="user"
        basePath={USERS_PATH}
        listKey={queryKeys.users.list}
        fetchPage={fetchUsers}
        itemKey={(user) => user.id}
        renderItem={(user) => (
          <UserCard
            user={user}
            isMe={user.id === me?.id}
            onEdit={(kind) => setEditing({ kind, user })}
            onReactivate={() => setActive.mutate({ userId: user.id, active: true }, { onSuccess: () => setNotice(t('users.reactivated')) })}
          />
        )}
        fieldLabel={(field) => t(`users.fields.${field}`)}
        sources={USER_FILTER_SOURCES}
        emptyText={t('users.noMatch')}
        countText={(count) => t('users.count', { count })}
        actions={
          <Button variant="contained" startIcon={<PersonAddAlt />} onClick={() => setEditing({ kind: 'create' })}>
            {t('users.create')}
          </Button>
        }
      />
      {editing?.kind === 'create' && <UserDialog onSaved={done(t('users.created'))} onClose={() => setEditing(undefined)} />}
      {editing?.kind === 'edit' && (
        <UserDialog user={editing.user} onSaved={done(t('users.saved'))} onClose={() => setEditing(undefined)} />
      )}
      {editing?.kind === 'password' && (
        <PasswordDialog user={editing.user} onSaved={done(t('users.passwordChanged'))} onClose={() => setEditing(undefined)} />
      )}
      {editing?.kind === 'delete' && (
        <ConfirmDialog
          title={t('users.deleteTitle')}
          message={t('users.deleteMessage', { name: editing.user.displayName })}
          confirmLabel={t('actions.delete')}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(editing.user.id, { onSuccess: done(t('users.deleted')), onError: () => setEditing(undefined) })}
          onClose={() => setEditing(undefined)}
        />
      )}
      {editing?.kind === 'deactivate' && (
        <ConfirmDialog
          title={t('users.deactivateTitle')}
          message={t('users.deactivateMessage', { name: editing.user.displayName })}
          confirmLabel={t('users.deactivate')}
          pending={setActive.isPending}
          onConfirm={() =>
            setActive.mutate({ userId: editing.user.id, active: false }, { onSuccess: done(t('users.deactivated')), onError: () => setEditing(undefined) })
          }
          onClose={() => setEditing(undefined)}
        />
      )}
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </>
  )
}
