import Link from '@mui/material/Link'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { subjectPath } from '../../lib/paths'
import type { SystemInfo } from './api'

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '')

/** A message the server wrote for an action, worded in the reader's language from its type and
 * arguments; when the element it names is gone (or hidden), unreachableOrDeletedElement. */
export function SystemText({ system }: { system: SystemInfo }): ReactNode {
  const { t, i18n } = useTranslation()
  const { args } = system
  // Mediations are the items with a status; another status is shown as it came.
  const statusLabel = (status: string) => (i18n.exists(`mediationStatuses.${status}`) ? t(`mediationStatuses.${status}`) : status)
  switch (system.type) {
    case 'criticity':
      return t('discussion.system.criticity', { frequency: text(args.frequency), gravity: text(args.gravity) })
    case 'duplicatedFrom':
      return (
        <>
          {t('discussion.system.duplicatedFrom')}{' '}
          {system.reachable && typeof args.id === 'number' ? (
            <Link component={RouterLink} to={subjectPath(args.id)}>
              {text(args.name)}
            </Link>
          ) : (
            <em>{t('discussion.unreachableOrDeletedElement')}</em>
          )}
        </>
      )
    case 'statusChanged':
      return t('discussion.system.statusChanged', { status: statusLabel(text(args.status)) })
    case 'resourceCreated':
    case 'resourceUpdated':
    case 'resourceDeleted':
      return system.reachable
        ? t(`discussion.system.${system.type}`, { name: text(args.name) })
        : `${t(`discussion.system.${system.type}`, { name: '' })} ${t('discussion.unreachableOrDeletedElement')}`
    case 'updated':
      return t('discussion.system.updated', { name: text(args.name) })
    case 'trackingPeriodsChanged':
    case 'mediationSigned':
      return t(`discussion.system.${system.type}`)
  }
}
