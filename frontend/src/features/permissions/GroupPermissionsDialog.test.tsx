import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithClient } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { GroupPermissionsDialog } from './GroupPermissionsDialog'

const PUT = 'PUT /backend/api/v2/permission/group/3'
const group = { id: 3, name: 'Référents', permissions: ['perm_EditPdv', 'perm_RemPdv'] }
const names = ['perm_EditPdv', 'perm_RemPdv', 'perm_SetPermissions']

describe('group permissions dialog', () => {
  it('shows a checkbox per permission, checked as the group holds them', () => {
    fakeServer({})
    renderWithClient(<GroupPermissionsDialog group={group} names={names} onClose={vi.fn()} />)
    expect(screen.getByRole('dialog', { name: 'Permissions of the group Référents' })).toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: /Create and edit subjects/ })).toBeChecked()
    expect(screen.getByRole('checkbox', { name: /Delete subjects/ })).toBeChecked()
    expect(screen.getByRole('checkbox', { name: /Manage permissions/ })).not.toBeChecked()
  })

  it('saves the chosen permissions for the group, then closes', async () => {
    const fetchMock = fakeServer({ [PUT]: () => json({ ...group, permissions: ['perm_EditPdv', 'perm_SetPermissions'] }) })
    const onClose = vi.fn()
    renderWithClient(<GroupPermissionsDialog group={group} names={names} onClose={onClose} />)
    await userEvent.click(screen.getByRole('checkbox', { name: /Delete subjects/ }))
    await userEvent.click(screen.getByRole('checkbox', { name: /Manage permissions/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce())
    const sent = sentRequests(fetchMock, PUT)
    expect(sent).toHaveLength(1)
    expect(await sent[0].json()).toEqual(['perm_EditPdv', 'perm_SetPermissions'])
  })

  it('cancels without saving', async () => {
    const fetchMock = fakeServer({})
    const onClose = vi.fn()
    renderWithClient(<GroupPermissionsDialog group={group} names={names} onClose={onClose} />)
    await userEvent.click(screen.getByRole('checkbox', { name: /Manage permissions/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(onClose).toHaveBeenCalledOnce()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('stays open and reports a refused save in the error dialog', async () => {
    fakeServer({ [PUT]: () => errorBody(409, 'Conflict', 'lastAdministrator') })
    const onClose = vi.fn()
    renderWithClient(<GroupPermissionsDialog group={group} names={names} onClose={onClose} />)
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('This change would leave nobody able to manage permissions')).toBeInTheDocument()
    expect(onClose).not.toHaveBeenCalled()
  })
})
