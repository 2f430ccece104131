import CheckCircle from '@mui/icons-material/CheckCircle'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Link from '@mui/material/Link'
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
import type { Group } from '../../api/types'
import { Loading } from '../../components/Loading'
import { PageHeader } from '../../components/PageHeader'
import { usePageTitle } from '../../lib/pageTitle'
import { permissionLabelKey } from '../../lib/permissions'
import { groupPermissionsQuery, permissionNamesQuery } from './api'
import { GroupPermissionsDialog } from './GroupPermissionsDialog'

function Matrix({ groups, names, onOpen }: { groups: Group[]; names: string[]; onOpen: (group: Group) => void }) {
  const { t } = useTranslation()
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ maxHeight: 'calc(100vh - 220px)' }}>
      <Table stickyHeader size="small" aria-label={t('permissions.title')}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ verticalAlign: 'bottom', minWidth: 200, left: 0, zIndex: 3 }}>{t('permissions.group')}</TableCell>
            {names.map((name) => (
              <TableCell key={name} align="center" sx={{ verticalAlign: 'bottom', px: 0.5 }}>
                <Tooltip title={name}>
                  <Box
                    component="span"
                    sx={{ writingMode: 'vertical-rl', transform: 'rotate(180deg)', display: 'inline-block', maxHeight: 150, lineHeight: 1.2, textAlign: 'left' }}
                  >
                    {t(permissionLabelKey(name), { defaultValue: name })}
                  </Box>
                </Tooltip>
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {groups.map((group) => (
            <TableRow key={group.id} hover onClick={() => onOpen(group)} sx={{ cursor: 'pointer' }}>
              <TableCell component="th" scope="row" sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper' }}>
                <Link
                  component="button"
                  type="button"
                  underline="hover"
                  onClick={(event) => {
                    event.stopPropagation()
                    onOpen(group)
                  }}
                  sx={{ fontWeight: 500, textAlign: 'left' }}
                >
                  {group.name}
                </Link>
              </TableCell>
              {names.map((name) => (
                <TableCell key={name} align="center" sx={{ px: 0.5 }}>
                  {group.permissions.includes(name) && (
                    <CheckCircle color="success" fontSize="small" titleAccess={t(permissionLabelKey(name), { defaultValue: name })} />
                  )}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  )
}

/** Which permissions each group holds; a click on a group edits its permissions. */
export function PermissionsPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.permissions'))
  const names = useQuery(permissionNamesQuery)
  const groups = useQuery(groupPermissionsQuery)
  const [editedId, setEditedId] = useState<number>()

  if (!names.data || !groups.data) return names.isError || groups.isError ? null : <Loading />
  const edited = groups.data.find((group) => group.id === editedId)
  return (
    <>
      <PageHeader title={t('permissions.title')} />
      <Stack spacing={2}>
        {groups.data.length === 0 && <Alert severity="error">{t('codes.emptyGroupList')}</Alert>}
        {names.data.length === 0 && <Alert severity="error">{t('codes.emptyPermissionList')}</Alert>}
        {groups.data.length > 0 && names.data.length > 0 && (
          <>
            <Typography color="text.secondary">{t('permissions.hint')}</Typography>
            <Matrix groups={groups.data} names={names.data} onOpen={(group) => setEditedId(group.id)} />
          </>
        )}
      </Stack>
      {edited && <GroupPermissionsDialog group={edited} names={names.data} onClose={() => setEditedId(undefined)} />}
    </>
  )
}
