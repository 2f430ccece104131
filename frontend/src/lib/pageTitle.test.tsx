import { QueryClientProvider } from '@tanstack/react-query'
import { act, render } from '@testing-library/react'
import { useTranslation } from 'react-i18next'
import { describe, expect, it } from 'vitest'
import { organizationInfoQuery } from '../api/queries'
import { createQueryClient } from '../api/queryClient'
import i18n from '../i18n'
import { pageTitle, usePageTitle } from './pageTitle'

function Page({ name }: { name: string | undefined }) {
  const { t } = useTranslation()
  usePageTitle(name && t(name))
  return null
}

function renderPage(name: string | undefined, organization?: { customerName: string; applicationName: string }) {
  const queryClient = createQueryClient()
  if (organization) queryClient.setQueryData(organizationInfoQuery.queryKey, { ...organization, legacyBaseUrl: null, timeZone: 'Europe/Paris', courseMaxBytes: 500_000_000 })
  return render(
    <QueryClientProvider client={queryClient}>
      <Page name={name} />
    </QueryClientProvider>,
  )
}

describe('page titles', () => {
  it('read page, application, then customer', () => {
    expect(pageTitle('Subjects', 'Spot', 'ACME')).toBe('Subjects - Spot - ACME')
    expect(pageTitle('Subjects', 'Spot', '')).toBe('Subjects - Spot')
    expect(pageTitle('Subjects', 'Spot')).toBe('Subjects - Spot')
  })

  it("name the organisation's customer once its information is loaded", () => {
    renderPage('pageTitles.subjects', { customerName: 'ACME', applicationName: 'Spot' })
    expect(document.title).toBe('Subjects - Spot - ACME')
  })

  it('leave the customer out when the organisation has none, or before its information is loaded', () => {
    renderPage('pageTitles.users', { customerName: '', applicationName: 'Spot' })
    expect(document.title).toBe('Users and groups - Spot')
    renderPage('pageTitles.sites')
    expect(document.title).toBe('Sites - Spot')
  })

  it('follow the language', async () => {
    renderPage('pageTitles.cartography', { customerName: 'ACME', applicationName: 'Spot' })
    expect(document.title).toBe('Cartography - Spot - ACME')
    await act(() => i18n.changeLanguage('fr'))
    expect(document.title).toBe('Cartographie - Spot - ACME')
  })

  it('are left to what the page shows instead when it has no name', () => {
    document.title = 'Page not found - Spot'
    renderPage(undefined, { customerName: 'ACME', applicationName: 'Spot' })
    expect(document.title).toBe('Page not found - Spot')
  })
})
