import { act, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { connection } from '../../lib/connection'
import { OfflineNotice } from './OfflineNotice'

describe('OfflineNotice', () => {
  it('says the device is offline while it is, and nothing once the network is back', () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true)
    render(<OfflineNotice />)
    expect(screen.queryByRole('status')).toBeNull()
    online.mockReturnValue(false)
    act(() => void window.dispatchEvent(new Event('offline')))
    expect(screen.getByRole('status')).toHaveTextContent('Offline: Spot opens, but nothing can be read from or saved to the server')
    online.mockReturnValue(true)
    act(() => void window.dispatchEvent(new Event('online')))
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('says so too when a call to the server got no answer, until one does', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true)
    render(<OfflineNotice />)
    act(() => connection.lost())
    expect(screen.getByRole('status')).toBeInTheDocument()
    act(() => connection.reached())
    expect(screen.queryByRole('status')).toBeNull()
  })
})
