import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { reportError } from '../api/errorReports'
import { ApiError } from '../api/errors'
import { ErrorDialog } from './ErrorDialog'

const conflict = new ApiError(
  {
    status: 409,
    reason: 'Conflict',
    message: 'lastAdministrator',
    errors: [{ field: 'groupIds', code: 'invalidValue' }],
  },
  { method: 'POST', path: '/backend/api/v2/user/byId/3' },
)

describe('error dialog', () => {
  it('shows status, reason, translated message and field errors, then closes', async () => {
    render(<ErrorDialog />)
    act(() => reportError(conflict))
    expect(screen.getByRole('dialog', { name: 'An error occured' })).toBeInTheDocument()
    expect(screen.getByText('The requested operation could not be completed')).toBeInTheDocument()
    expect(screen.getByText('409 Conflict')).toBeInTheDocument()
    expect(screen.getByText('This change would leave nobody able to manage permissions')).toBeInTheDocument()
    expect(screen.getByText('groupIds: Invalid value')).toBeInTheDocument()
    expect(screen.getByText('Contact your administrator if the problem happens again')).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('shows more and then fewer details', async () => {
    render(<ErrorDialog />)
    act(() => reportError(conflict))
    expect(screen.queryByText('POST /backend/api/v2/user/byId/3')).not.toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'More details' }))
    expect(screen.getByText('POST /backend/api/v2/user/byId/3')).toBeInTheDocument()
    expect(screen.getByText('groupIds: invalidValue')).toBeInTheDocument()
    expect(screen.getByText('lastAdministrator')).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Less details' }))
    await waitFor(() => expect(screen.queryByText('POST /backend/api/v2/user/byId/3')).not.toBeInTheDocument())
  })

  it('says when the server itself failed', () => {
    render(<ErrorDialog />)
    act(() => reportError(new ApiError({ status: 500, reason: 'Internal Server Error', message: 'unexpectedServerError', errors: [] })))
    expect(screen.getByText('An error occurred on the server side')).toBeInTheDocument()
    expect(screen.getByText('An unexpected server error occurred.')).toBeInTheDocument()
  })

  it('shows the name and message of a client error', () => {
    render(<ErrorDialog />)
    act(() => reportError(new TypeError('Failed to fetch')))
    expect(screen.getByText('TypeError: Failed to fetch')).toBeInTheDocument()
  })

  it('shows queued errors one after the other', async () => {
    render(<ErrorDialog />)
    act(() => {
      reportError(new TypeError('first'))
      reportError(new TypeError('second'))
    })
    expect(screen.getByText('TypeError: first')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(await screen.findByText('TypeError: second')).toBeInTheDocument()
  })
})
