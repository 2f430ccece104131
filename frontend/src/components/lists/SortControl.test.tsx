import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithClient } from '../../test/render'
import { fakeServer } from '../../test/server'
import { SortControl } from './SortControl'
import { FIELDS_CALL, fieldsAnswer, PARSE_CALL, parseAnswer } from './testServer'

function renderSort(sort: string) {
  fakeServer({ [FIELDS_CALL]: fieldsAnswer, [PARSE_CALL]: parseAnswer })
  const onChange = vi.fn()
  renderWithClient(<SortControl entityType="subject" sort={sort} fieldLabel={(field) => `F:${field}`} onChange={onChange} />)
  return onChange
}

describe('sort control', () => {
  it('shows the default order when the sort is empty', async () => {
    renderSort('')
    expect(await screen.findByText('default order (F:updated_date)')).toBeInTheDocument()
  })

  it('reverses a key, removes one, and keeps the others in order', async () => {
    const onChange = renderSort('-created_date,name')
    await userEvent.click(await screen.findByRole('button', { name: 'F:name, ascending' }))
    expect(onChange).toHaveBeenLastCalledWith('-created_date,-name')
    const descending = screen.getByRole('button', { name: 'F:created_date, descending' })
    await userEvent.click(within(descending).getByTestId('CancelIcon'))
    expect(onChange).toHaveBeenLastCalledWith('name')
  })

  it('adds only sortable fields not already used', async () => {
    const onChange = renderSort('name')
    await userEvent.click(await screen.findByRole('button', { name: 'Also sort by…' }))
    const offered = screen.getAllByRole('menuitem').map((item) => item.textContent)
    expect(offered).toEqual(['F:code', 'F:criticity', 'F:created_date', 'F:updated_date'])
    await userEvent.click(screen.getByRole('menuitem', { name: 'F:updated_date' }))
    expect(onChange).toHaveBeenLastCalledWith('name,updated_date')
  })

  it('shows a sort the server refuses, and goes back to the default order', async () => {
    const onChange = renderSort('location')
    expect(await screen.findByText('Invalid sort: Field is not valid for this query')).toBeInTheDocument()
    await userEvent.click(screen.getByTestId('CancelIcon'))
    expect(onChange).toHaveBeenLastCalledWith('')
  })
})
