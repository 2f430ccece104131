import Box from '@mui/material/Box'
import Tab from '@mui/material/Tab'
import Tabs from '@mui/material/Tabs'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { PageHeader } from '../../components/PageHeader'
import { usePageTitle } from '../../lib/pageTitle'
import { ApiTokensTab } from './ApiTokensTab'
import { GroupsTab } from './GroupsTab'
import { ImportTab } from './ImportTab'
import { UsersTab } from './UsersTab'

const TABS = ['users', 'groups', 'import', 'tokens'] as const
type UsersPageTab = (typeof TABS)[number]
const TAB_LABELS: Record<UsersPageTab, string> = {
  users: 'users.tab',
  groups: 'groups.tab',
  import: 'users.import.tab',
  tokens: 'apiTokens.tab',
}

/** User and group management; the open tab is kept in the address (?tab=groups). */
export function UsersPage() {
  const { t } = useTranslation()
  usePageTitle(t('pageTitles.users'))
  const [search, setSearch] = useSearchParams()
  const tab: UsersPageTab = TABS.find((value) => value !== 'users' && value === search.get('tab')) ?? 'users'
  return (
    <>
      <PageHeader title={t('users.title')} />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs value={tab} onChange={(_event, next: UsersPageTab) => setSearch(next === 'users' ? {} : { tab: next }, { replace: true })}>
          {TABS.map((value) => (
            <Tab key={value} value={value} label={t(TAB_LABELS[value])} />
          ))}
        </Tabs>
      </Box>
      {tab === 'users' && <UsersTab />}
      {tab === 'groups' && <GroupsTab />}
      {tab === 'import' && <ImportTab />}
      {tab === 'tokens' && <ApiTokensTab />}
    </>
  )
}
