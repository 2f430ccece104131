import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import DriveFileRenameOutline from '@mui/icons-material/DriveFileRenameOutline'
import GroupAdd from '@mui/icons-material/GroupAdd'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { GroupWithMembers } from '../../api/types'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { Loading } from '../../components/Loading'
import { Notice } from '../../components/Notice'
import { groupsQuery, useDeleteGroup } from './api'
import { GroupDialog } from './GroupDialog'

type Editing = { kind: 'create' } | { kind: 'rename' | 'delete'; group: GroupWithMembers }

export function GroupsTab() {
  const { t } = useTranslation()
  const { data: groups, isError } = useQuery(groupsQuery)
  const remove = useDeleteGroup()
  const [editing, setEditing] = useState<Editing>()
  const [notice, setNotice] = useState<string>()

  const done = (text: string) => () => {
    setEditing(undefined)
    setNotice(text)
  }

  if (!groups) return isError ? null : <Loading />
  return (
    <>
      <Stack direction="row" sx={{ mb: 2, justifyContent: 'flex-end' }}>
        <Button variant="contained" startIcon={<GroupAdd />} onClick={() => setEditing({ kind: 'create' })}>
          {t('groups.create')}
        </Button>
      </Stack>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={t('groups.tab')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('groups.name')}</TableCell>
              <TableCell align="right">{t('groups.members')}</TableCell>
              <TableCell align="right">{t('groups.permissions')}</TableCell>
              <TableCell align="right">{t('common.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {groups.map((group) => (
              <TableRow key={group.id} hover>
                <TableCell sx={{ fontWeight: 500 }}>{group.name}</TableCell>
                <TableCell align="right">{group.membersCount}</TableCell>
                <TableCell align="right">{group.permissions.length}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Tooltip title={t('groups.rename')}>
                    <IconButton aria-label={t('groups.renameLabel', { name: group.name })} onClick={() => setEditing({ kind: 'rename', group })}>
                      <DriveFileRenameOutline fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('actions.delete')}>
                    <IconButton aria-label={t('groups.deleteLabel', { name: group.name })} onClick={() => setEditing({ kind: 'delete', group })}>
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {groups.length === 0 && (
          <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
            {t('codes.emptyGroupList')}
          </Typography>
        )}
      </TableContainer>
      {editing?.kind === 'create' && <GroupDialog onSaved={done(t('groups.created'))} onClose={() => setEditing(undefined)} />}
      {editing?.kind === 'rename' && (
        <GroupDialog group={editing.group} onSaved={done(t('groups.renamed'))} onClose={() => setEditing(undefined)} />
      )}
      {editing?.kind === 'delete' && (
        <ConfirmDialog
          title={t('groups.deleteTitle')}
          message={t('groups.deleteMessage', { name: editing.group.name, count: editing.group.membersCount })}
          confirmLabel={t('actions.delete')}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(editing.group.id, { onSuccess: done(t('groups.deleted')), onError: () => setEditing(undefined) })}
          onClose={() => setEditing(undefined)}
        />
      )}
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </>
  )
}
