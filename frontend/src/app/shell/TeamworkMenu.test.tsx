import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { UnreadDiscussion } from '../../components/discussion/api'
import { renderRoutes } from '../../test/render'
import { fakeServer, json } from '../../test/server'
import { discussionLink, TeamworkMenu } from './TeamworkMenu'

const UNREAD = 'GET /backend/api/v2/discussion/unread'

const item = (changes: Partial<UnreadDiscussion>): UnreadDiscussion => ({
  discussionId: 1,
  parentType: 'subject',
  parentId: 5,
  parentName: 'Réglage du tour',
  unreadCount: 1,
  lastDate: '2026-03-10T09:15:00Z',
  ...changes,
})

function renderMenu(items: UnreadDiscussion[]) {
  fakeServer({ [UNREAD]: () => json(items) })
  return renderRoutes([{ path: '*', Component: TeamworkMenu }], '/spotv2/')
}

describe('teamwork menu', () => {
  it('counts the discussions with new messages and links each to its item with the panel open', async () => {
    const { router } = renderMenu([
      item({ discussionId: 2, unreadCount: 3 }),
      item({ discussionId: 3, parentType: 'cartography', parentId: 9, parentName: "Atelier d'usinage", lastDate: '2026-03-09T08:00:00Z' }),
    ])
    const button = await screen.findByRole('button', { name: 'Team discussions: 2 with new messages' })
    await userEvent.click(button)
    const menu = await screen.findByRole('dialog', { name: 'New messages' })
    const links = within(menu).getAllByRole('link')
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/spotv2/subject/5?discussion=open', '/spotv2/cartography/9?discussion=open'])
    expect(links[0]).toHaveTextContent('Subject · Réglage du tour')
    expect(links[0]).toHaveTextContent('3 new messages')
    expect(links[1]).toHaveTextContent('1 new message')
    await userEvent.click(links[0])
    expect(router.state.location.pathname).toBe('/spotv2/subject/5')
    expect(router.state.location.search).toBe('?discussion=open')
  })

  it('says when there is nothing new', async () => {
    renderMenu([])
    await userEvent.click(await screen.findByRole('button', { name: 'Team discussions' }))
    expect(await screen.findByText('No new message in the discussions you take part in.')).toBeInTheDocument()
  })

  it('links the discussion of a qualification to its view', () => {
    expect(discussionLink(item({ parentType: 'qualification', parentId: 9 }))).toBe('/qualification/view/9?discussion=open')
  })
})
