import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { organizationInfoQuery } from '../api/queries'

/** "<page> - Spot - <customer>"; without a customer name, "<page> - Spot". */
export function pageTitle(page: string, application: string, customer?: string): string {
  return [page, application, customer].filter(Boolean).join(' - ')
}

/**
 * Sets the document title of the page calling it; `page` is its translated name, so the title follows
 * the language. Undefined leaves the title to what the page shows instead (NotFound, Forbidden): a
 * parent's effect runs after its children's and would otherwise overwrite theirs.
 * The organisation's names are read from the cache without asking the server: the app loads them once
 * for every page (see App), and a page must not fail for want of its title.
 */
export function usePageTitle(page: string | undefined): void {
  const { t } = useTranslation()
  const { data: organization } = useQuery({ ...organizationInfoQuery, enabled: false })
  const title = page === undefined ? undefined : pageTitle(page, organization?.applicationName ?? t('app.name'), organization?.customerName)
  useEffect(() => {
    if (title !== undefined) document.title = title
  }, [title])
}
