import FolderZipOutlined from '@mui/icons-material/FolderZipOutlined'
import Button from '@mui/material/Button'
import { visuallyHidden } from '@mui/utils'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { whoAmIQuery } from '../../api/queries'
import { download } from './download'

/** Downloads a person's audit pack (a zip of a PDF per path of theirs and one of their qualification status), its texts in `language`. */
export const downloadAuditPack = (userId: number, language: string) =>
  download(
    api.GET('/backend/api/v2/reports/auditPack/{userId}', {
      params: { path: { userId } },
      headers: { 'Accept-Language': language },
      parseAs: 'blob',
    }),
    `audit-${userId}.zip`,
  )

/**
 * The button that downloads a person's audit pack (docs/reports.md), shown where whoAmI's
 * `can.downloadAuditPacks` allows it. `label` names it where the person is not the page's subject (a path's learner).
 */
export function AuditPackButton({ userId, label }: { userId: number; label?: string }) {
  const { t, i18n } = useTranslation()
  const { data: user } = useQuery(whoAmIQuery)
  const pack = useMutation({ mutationFn: () => downloadAuditPack(userId, i18n.language) })
  if (user?.can?.downloadAuditPacks !== true) return null
  return (
    <>
      <Button variant="outlined" startIcon={<FolderZipOutlined />} loading={pack.isPending} onClick={() => pack.mutate()}>
        {label ?? t('downloads.auditPack')}
      </Button>
      <span aria-live="polite" style={visuallyHidden}>
        {pack.isSuccess ? t('downloads.auditPackDownloaded') : ''}
      </span>
    </>
  )
}
