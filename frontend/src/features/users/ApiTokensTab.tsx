import Add from '@mui/icons-material/Add'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isApiError } from '../../api/errors'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { Loading } from '../../components/Loading'
import { Notice } from '../../components/Notice'
import { formatDateTime } from '../../lib/dates'
import { useMessage } from '../../lib/messages'
import { type ApiToken, apiTokensQuery, useRevokeApiToken } from './api'
import { ApiTokenDialog } from './ApiTokenDialog'

/** A column shown from tablets up. */
const WIDE_ONLY = { display: { xs: 'none', sm: 'table-cell' } }

type Editing = { kind: 'create' } | { kind: 'revoke'; token: ApiToken }

/** The tokens other systems reach Spot with (SCIM): created here, their value shown once, and revoked. */
export function ApiTokensTab() {
  const { t, i18n } = useTranslation()
  const message = useMessage()
  const { data: tokens, isError } = useQuery(apiTokensQuery)
  const revoke = useRevokeApiToken()
  const [editing, setEditing] = useState<Editing>()
  const [notice, setNotice] = useState<string>()
  const [refusal, setRefusal] = useState<string>()

  const moment = (value: string) => <time dateTime={value}>{formatDateTime(value, i18n.language)}</time>
  const confirmRevoke = (token: ApiToken) => {
    setRefusal(undefined)
    revoke.mutate(token.id, {
      onSuccess: () => {
        setEditing(undefined)
        setNotice(t('apiTokens.revoked'))
      },
      onError: (error) => {
        setEditing(undefined)
        // Revoked or deleted meanwhile (by someone else, or on the command line): said here, the list read again.
        if (isApiError(error, 404, 409)) setRefusal(message(error.message))
      },
    })
  }

  if (!tokens) return isError ? null : <Loading />
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 2, alignItems: { sm: 'flex-start' }, justifyContent: 'space-between' }}>
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 800 }}>
          {t('apiTokens.hint')}
        </Typography>
        <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ kind: 'create' })} sx={{ flexShrink: 0, alignSelf: { xs: 'flex-end' } }}>
          {t('apiTokens.create')}
        </Button>
      </Stack>
      {refusal && (
        <Alert severity="error" role="alert" onClose={() => setRefusal(undefined)}>
          {refusal}
        </Alert>
      )}
      <TableContainer component={Paper} variant="outlined">
        {/* On a phone, the scope, the creation and the last use give way: name, status and Revoke stay in view. */}
        <Table size="small" aria-label={t('apiTokens.tab')} sx={{ minWidth: { xs: 0, md: 720 }, '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } } }}>
          <TableHead>
            <TableRow>
              <TableCell>{t('apiTokens.name')}</TableCell>
              <TableCell sx={WIDE_ONLY}>{t('apiTokens.scope')}</TableCell>
              <TableCell sx={WIDE_ONLY}>{t('apiTokens.created')}</TableCell>
              <TableCell sx={WIDE_ONLY}>{t('apiTokens.lastUsed')}</TableCell>
              <TableCell>{t('apiTokens.status')}</TableCell>
              <TableCell align="right">{t('common.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {tokens.map((token) => (
              <TableRow key={token.id} hover data-revoked={token.revokedAt !== null}>
                <TableCell sx={{ fontWeight: 500, overflowWrap: 'anywhere', minWidth: 96 }}>{token.name}</TableCell>
                <TableCell sx={WIDE_ONLY}>{t(`apiTokens.scopes.${token.scope}`)}</TableCell>
                <TableCell sx={WIDE_ONLY}>
                  {moment(token.createdAt)}
                  <Typography variant="body2" color="text.secondary">
                    {token.createdBy === null ? t('apiTokens.commandLine') : t('apiTokens.createdBy', { name: token.createdBy })}
                  </Typography>
                </TableCell>
                <TableCell sx={WIDE_ONLY}>{token.lastUsedAt === null ? t('apiTokens.never') : moment(token.lastUsedAt)}</TableCell>
                <TableCell>
                  {token.revokedAt === null ? (
                    <Chip size="small" variant="outlined" color="success" label={t('apiTokens.live')} />
                  ) : (
                    <Chip
                      size="small"
                      variant="outlined"
                      label={t('apiTokens.revokedOn', { date: formatDateTime(token.revokedAt, i18n.language) })}
                      // The date wraps on a narrow screen rather than pushing Revoke out of view.
                      sx={{ height: 'auto', py: 0.25, '& .MuiChip-label': { whiteSpace: 'normal' } }}
                    />
                  )}
                </TableCell>
                <TableCell align="right">
                  {token.revokedAt === null && (
                    <Button
                      size="small"
                      color="error"
                      aria-label={t('apiTokens.revokeLabel', { name: token.name })}
                      onClick={() => setEditing({ kind: 'revoke', token })}
                    >
                      {t('apiTokens.revoke')}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {tokens.length === 0 && (
          <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
            {t('apiTokens.empty')}
          </Typography>
        )}
      </TableContainer>
      {editing?.kind === 'create' && (
        <ApiTokenDialog
          onDone={() => {
            setEditing(undefined)
            setNotice(t('apiTokens.createdNotice'))
          }}
          onClose={() => setEditing(undefined)}
        />
      )}
      {editing?.kind === 'revoke' && (
        <ConfirmDialog
          title={t('apiTokens.revokeTitle')}
          message={t('apiTokens.revokeMessage', { name: editing.token.name })}
          confirmLabel={t('apiTokens.revoke')}
          pending={revoke.isPending}
          onConfirm={() => confirmRevoke(editing.token)}
          onClose={() => setEditing(undefined)}
        />
      )}
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </Stack>
  )
}
