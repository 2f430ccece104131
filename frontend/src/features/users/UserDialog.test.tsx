import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithClient } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { UserDialog } from './UserDialog'

const CREATE = 'PUT /backend/api/v2/user/create'
const GROUPS = 'GET /backend/api/v2/user/groups'

describe('user dialog', () => {
  it('checks the general text rule and the password length before saving', async () => {
    const fetchMock = fakeServer({ [GROUPS]: () => json([]) })
    renderWithClient(<UserDialog onSaved={vi.fn()} onClose={vi.fn()} />)
    await userEvent.type(screen.getByLabelText('First name'), ' Jeanne')
    await userEvent.type(screen.getByLabelText(/^Password/), 'short')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText("This field can't stay empty")).toBeInTheDocument()
    expect(screen.getByText('Text may not begin or end with whitespace')).toBeInTheDocument()
    expect(screen.getByText('The password must have at least 8 characters')).toBeInTheDocument()
    expect(screen.getByText('At least one error remains to be corrected')).toBeInTheDocument()
    expect(sentRequests(fetchMock, CREATE)).toHaveLength(0)
  })

  it('shows a server field error on its field and keeps what was typed', async () => {
    fakeServer({
      [GROUPS]: () => json([]),
      [CREATE]: () => errorBody(409, 'Conflict', 'loginAlreadyUsed', [{ field: 'login', code: 'loginAlreadyUsed' }]),
    })
    const onSaved = vi.fn()
    renderWithClient(<UserDialog onSaved={onSaved} onClose={vi.fn()} />)
    await userEvent.type(screen.getByLabelText(/^Login/), 'jdupont')
    await userEvent.type(screen.getByLabelText('Last name'), 'Dupont')
    await userEvent.type(screen.getByLabelText(/^Password/), 'long-enough')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('This login is already used')).toBeInTheDocument()
    expect(screen.getByLabelText(/^Login/)).toHaveValue('jdupont')
    expect(screen.getByLabelText('Last name')).toHaveValue('Dupont')
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
    expect(onSaved).not.toHaveBeenCalled()
  })

  it('creates the user with an absent external identifier and e-mail address as null, in the language shown', async () => {
    const fetchMock = fakeServer({ [GROUPS]: () => json([]), [CREATE]: () => json({ id: 9 }) })
    const onSaved = vi.fn()
    renderWithClient(<UserDialog onSaved={onSaved} onClose={vi.fn()} />)
    await userEvent.type(screen.getByLabelText(/^Login/), 'jdupont')
    await userEvent.type(screen.getByLabelText(/^Password/), 'long-enough')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce())
    expect(await sentRequests(fetchMock, CREATE)[0].json()).toEqual({
      login: 'jdupont',
      firstName: '',
      lastName: '',
      externalId: null,
      email: null,
      language: 'en',
      password: 'long-enough',
      groupIds: [],
    })
  })

  it("shows the server's refusal of an e-mail address on its field", async () => {
    fakeServer({
      [GROUPS]: () => json([]),
      [CREATE]: () => errorBody(422, 'Unprocessable Entity', 'Validation failed', [{ field: 'email', code: 'invalidEmail' }]),
    })
    renderWithClient(<UserDialog onSaved={vi.fn()} onClose={vi.fn()} />)
    await userEvent.type(screen.getByLabelText(/^Login/), 'jdupont')
    await userEvent.type(screen.getByLabelText(/^Password/), 'long-enough')
    await userEvent.type(screen.getByLabelText('E-mail address'), 'pas-une-adresse')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('This is not an e-mail address')).toBeInTheDocument()
    expect(screen.getByLabelText('E-mail address')).toHaveValue('pas-une-adresse')
  })
})
