import type { CurrentUser } from '../../api/types'
import { SearchBar } from '../../features/search/SearchBar'
import { AddMenu } from './AddMenu'
import { AlertsBell } from './AlertsBell'
import { TeamworkMenu } from './TeamworkMenu'

/** The header's search bar, plus menu, bell and teamwork menu. Loaded after the shell (Shell.tsx
 * imports it lazily): with them the initial JavaScript passed its 250 KB budget, and the first page
 * need not wait for them. */
export default function HeaderTools({ user }: { user: CurrentUser | undefined }) {
  return (
    <>
      {user && <SearchBar />}
      <AddMenu user={user} />
      {user && <AlertsBell />}
      {user && <TeamworkMenu />}
    </>
  )
}
