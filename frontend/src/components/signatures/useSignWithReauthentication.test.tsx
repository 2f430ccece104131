import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { apiErrorFrom } from '../../api/errors'
import { renderWithClient } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests, throttled } from '../../test/server'
import { useSignWithReauthentication } from './useSignWithReauthentication'

const SIGN = 'POST /backend/api/v2/mediation/4/sign'
const REAUTHENTICATE = 'POST /backend/api/v2/account/reauthenticate'
const SIGNED = { id: 4, status: 'validated' }

const reauthenticationRequired = () => errorBody(401, 'Unauthorized', 'reauthenticationRequired')

/** A sign route called as a page would: a plain call, failures thrown as ApiError. */
async function signMediation(): Promise<typeof SIGNED> {
  const request = new Request(`${window.location.origin}/backend/api/v2/mediation/4/sign`, { method: 'POST' })
  const response = await globalThis.fetch(request)
  if (!response.ok) throw await apiErrorFrom(response, request)
  return (await response.json()) as typeof SIGNED
}

function SignButton({ onSigned }: { onSigned: (result: typeof SIGNED) => void }) {
  const { sign, signing, dialog } = useSignWithReauthentication(signMediation, { onSigned })
  return (
    <>
      <button type="button" aria-label="Sign it" onClick={sign} disabled={signing} />
      {dialog}
    </>
  )
}

/** The sign route asks for the password once, then accepts. */
function signAfterReauthentication() {
  let asked = false
  return () => {
    if (asked) return json(SIGNED)
    asked = true
    return reauthenticationRequired()
  }
}

async function openTheDialog(onSigned = vi.fn()) {
  renderWithClient(<SignButton onSigned={onSigned} />)
  await userEvent.click(screen.getByRole('button', { name: 'Sign it' }))
  return screen.findByRole('dialog', { name: 'Confirm your identity to sign' })
}

describe('signing with re-authentication', () => {
  it('signs at once when the session is freshly authenticated', async () => {
    const server = fakeServer({ [SIGN]: () => json(SIGNED) })
    const onSigned = vi.fn()
    renderWithClient(<SignButton onSigned={onSigned} />)
    await userEvent.click(screen.getByRole('button', { name: 'Sign it' }))
    await waitFor(() => expect(onSigned).toHaveBeenCalledWith(SIGNED))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(sentRequests(server, REAUTHENTICATE)).toHaveLength(0)
  })

  it('asks for the password when the server requires it, then signs again', async () => {
    const server = fakeServer({ [SIGN]: signAfterReauthentication(), [REAUTHENTICATE]: () => new Response(null, { status: 204 }) })
    const onSigned = vi.fn()
    await openTheDialog(onSigned)
    expect(onSigned).not.toHaveBeenCalled()
    await userEvent.type(screen.getByLabelText(/^Password/), 'my password')
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and sign' }))
    await waitFor(() => expect(onSigned).toHaveBeenCalledWith(SIGNED))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    const [sent] = sentRequests(server, REAUTHENTICATE)
    expect(await sent?.json()).toEqual({ password: 'my password' })
    expect(sentRequests(server, SIGN)).toHaveLength(2)
    // Nothing went to the global error display.
    expect(screen.queryByRole('dialog', { name: 'An error occured' })).not.toBeInTheDocument()
  })

  it('shows a wrong password on its field and keeps the dialog open', async () => {
    let attempts = 0
    const server = fakeServer({
      [SIGN]: signAfterReauthentication(),
      [REAUTHENTICATE]: () => {
        attempts += 1
        return attempts === 1
          ? errorBody(400, 'Bad Request', 'loginError', [{ field: 'password', code: 'loginError' }])
          : new Response(null, { status: 204 })
      },
    })
    const onSigned = vi.fn()
    const dialog = await openTheDialog(onSigned)
    const password = screen.getByLabelText(/^Password/)
    await userEvent.type(password, 'wrong')
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and sign' }))
    expect(await screen.findByText('Wrong password')).toBeInTheDocument()
    expect(password).toHaveAttribute('aria-invalid', 'true')
    expect(dialog).toBeInTheDocument()
    expect(sentRequests(server, SIGN)).toHaveLength(1)
    expect(onSigned).not.toHaveBeenCalled()
    await userEvent.clear(password)
    await userEvent.type(password, 'right')
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and sign' }))
    await waitFor(() => expect(onSigned).toHaveBeenCalledWith(SIGNED))
  })

  it('signs nothing when the dialog is cancelled', async () => {
    const server = fakeServer({ [SIGN]: reauthenticationRequired })
    const onSigned = vi.fn()
    await openTheDialog(onSigned)
    await userEvent.type(screen.getByLabelText(/^Password/), 'typed')
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(sentRequests(server, REAUTHENTICATE)).toHaveLength(0)
    expect(sentRequests(server, SIGN)).toHaveLength(1)
    expect(onSigned).not.toHaveBeenCalled()
    expect(screen.getByRole('button', { name: 'Sign it' })).toBeEnabled()
  })

  it('asks for a password before sending anything', async () => {
    const server = fakeServer({ [SIGN]: reauthenticationRequired })
    await openTheDialog()
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and sign' }))
    expect(await screen.findByText("This field can't stay empty")).toBeInTheDocument()
    expect(sentRequests(server, REAUTHENTICATE)).toHaveLength(0)
  })

  it('says so when too many wrong passwords make the user wait', async () => {
    fakeServer({
      [SIGN]: reauthenticationRequired,
      [REAUTHENTICATE]: () => throttled(120),
    })
    const dialog = await openTheDialog()
    await userEvent.type(screen.getByLabelText(/^Password/), 'again')
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and sign' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many failed attempts. Try again in 2 min.')
    expect(dialog).toBeInTheDocument()
  })

  it('tells a user without a password to sign in again through their provider', async () => {
    fakeServer({ [SIGN]: reauthenticationRequired, [REAUTHENTICATE]: () => errorBody(400, 'Bad Request', 'reauthenticationByProviderNeeded') })
    await openTheDialog()
    await userEvent.type(screen.getByLabelText(/^Password/), 'none')
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and sign' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('sign in again through the provider')
  })

  it('leaves any other refusal to the global error display', async () => {
    fakeServer({ [SIGN]: () => errorBody(409, 'Conflict', 'alreadySigned') })
    const onSigned = vi.fn()
    renderWithClient(<SignButton onSigned={onSigned} />)
    await userEvent.click(screen.getByRole('button', { name: 'Sign it' }))
    expect(await screen.findByRole('dialog', { name: 'An error occured' })).toHaveTextContent('409 Conflict')
    expect(screen.queryByRole('dialog', { name: 'Confirm your identity to sign' })).not.toBeInTheDocument()
    expect(onSigned).not.toHaveBeenCalled()
  })
})
