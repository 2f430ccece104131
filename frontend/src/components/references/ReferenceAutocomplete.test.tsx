import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithClient } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'
import { ReferenceAutocomplete } from './ReferenceAutocomplete'

const SEARCH = 'GET /backend/api/v2/training/references/module/search'
const FOUND = [
  { code: 'CONS-02', label: 'Consignation', description: 'Mise en sécurité', disabled: false },
  { code: 'SEC-01', label: 'Sécurité générale', description: '', disabled: false },
]

describe('ReferenceAutocomplete', () => {
  it('searches what is entered and gives the chosen code', async () => {
    const fetchMock = fakeServer({ [SEARCH]: () => json(FOUND) })
    const onChange = vi.fn()
    renderWithClient(<ReferenceAutocomplete type="module" value={null} onChange={onChange} />)
    // Pasted: how many searches keys typed one by one cause depends on the machine's speed
    // (lib/useDebouncedValue.test.ts holds the debounce).
    await userEvent.click(screen.getByRole('combobox', { name: 'Reference' }))
    await userEvent.paste('sec')
    await userEvent.click(await screen.findByRole('option', { name: /SEC-01 — Sécurité générale/ }))
    expect(onChange).toHaveBeenCalledWith('SEC-01')
    const texts = sentRequests(fetchMock, SEARCH).map((request) => new URL(request.url).searchParams.get('text'))
    // Asked for the list on opening, then for the text.
    expect(texts.at(-1)).toBe('sec')
  })

  it('shows a value as code — label, read from the server', async () => {
    fakeServer({
      'GET /backend/api/v2/training/references/module/SEC-01': () =>
        json({ ...FOUND[1], version: 1, usage: 0, can: { edit: false, delete: false } }),
    })
    renderWithClient(<ReferenceAutocomplete type="module" value="SEC-01" onChange={() => undefined} label="Référence du module" />)
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Référence du module' })).toHaveValue('SEC-01 — Sécurité générale'))
  })

  it('shows an error key as its message', () => {
    fakeServer({})
    renderWithClient(<ReferenceAutocomplete type="path" value={null} onChange={() => undefined} error="invalidValue" />)
    expect(screen.getByText('Invalid value')).toBeInTheDocument()
  })
})
