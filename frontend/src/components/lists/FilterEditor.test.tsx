import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import fixture from '../../lib/querylang/roundtrip.fixture.json'
import type { ValueId } from '../../lib/querylang/types'
import { renderWithClient } from '../../test/render'
import { fakeServer, sentRequests } from '../../test/server'
import { FilterEditor } from './FilterEditor'
import { CHECK_CALL, checkAnswer, FIELDS_CALL, fieldsAnswer, NESTED_TEXT, PARSE_CALL, parseAnswer } from './testServer'
import type { ValueSource } from './types'

const fieldLabel = (name: string) => `F:${name}`
const enumLabel = (_field: string, value: string) => `E:${value}`

function renderEditor(filter: string, onApply = vi.fn()) {
  const fetchMock = fakeServer({ [FIELDS_CALL]: fieldsAnswer, [PARSE_CALL]: parseAnswer, [CHECK_CALL]: checkAnswer })
  const people = {
    search: vi.fn(async (text: string) => (text === '' ? [] : [{ id: 3, label: 'Person 3' }])),
    labels: vi.fn(async (ids: ValueId[]) => ids.map((id) => ({ id, label: `Person ${id}` }))),
  } satisfies ValueSource
  renderWithClient(
    <FilterEditor
      entityType="subject"
      filter={filter}
      fieldLabel={fieldLabel}
      enumLabel={enumLabel}
      sources={{ created_by: people, contributors: people }}
      onApply={onApply}
    />,
  )
  return { fetchMock, onApply, people }
}

const criterion = (number: number) => screen.getByRole('group', { name: `Criterion ${number}` })
const applyButton = () => screen.getByRole('button', { name: 'Apply' })

async function chooseField(row: HTMLElement, label: string) {
  await userEvent.click(within(row).getByRole('combobox', { name: 'Field' }))
  await userEvent.click(await screen.findByRole('option', { name: label }))
}

describe('filter editor: text → rows → text', () => {
  it.each(fixture.cases)('shows "$name" as rows and applies the same text', async (c) => {
    const { onApply } = renderEditor(c.text)
    await screen.findByRole('group', { name: 'Criterion 1' })
    c.rows.rows.forEach((row, index) => {
      const shown = criterion(index + 1)
      expect(within(shown).getByRole('combobox', { name: 'Field' })).toHaveTextContent(fieldLabel(row.field))
      expect(within(shown).getByRole('combobox', { name: 'Operator' })).toHaveTextContent(
        { contains: 'contains', startsWith: 'starts with', endsWith: 'ends with', equals: 'is', different: 'is not' }[row.operator] ?? /./,
      )
      if (row.type === 'string') expect(within(shown).getByRole('textbox', { name: 'Value' })).toHaveValue(row.value)
      if (row.type === 'boolean') expect(within(shown).getByRole('button', { name: row.value === 'true' ? 'Yes' : 'No' })).toHaveAttribute('aria-pressed', 'true')
      if (row.type === 'enum') for (const value of row.values) expect(within(shown).getByRole('button', { name: `E:${value}` })).toHaveAttribute('aria-pressed', 'true')
      if (row.type === 'date') expect(within(shown).getByRole('group', { name: 'Value' })).toHaveTextContent(row.value)
    })
    if (c.rows.rows.length > 1) {
      const join = c.rows.join === 'and' ? 'All the criteria (and)' : 'At least one criterion (or)'
      expect(screen.getByRole('button', { name: join })).toHaveAttribute('aria-pressed', 'true')
    }
    await userEvent.click(applyButton())
    expect(onApply).toHaveBeenCalledWith(c.text)
  })

  it('names the chosen ids through the field’s source', async () => {
    renderEditor(fixture.cases[0].text)
    const idRow = await screen.findByRole('group', { name: 'Criterion 5' })
    expect(await within(idRow).findByText('Person 3')).toBeInTheDocument()
    expect(within(idRow).getByText('Person 7')).toBeInTheDocument()
  })

  it('shows the rows as text, and the text as rows again', async () => {
    const c = fixture.cases[1]
    const { onApply } = renderEditor(c.text)
    await screen.findByRole('group', { name: 'Criterion 1' })
    await userEvent.click(screen.getByRole('button', { name: 'Text' }))
    expect(screen.getByRole('textbox', { name: 'Filter text' })).toHaveValue(c.text)
    await waitFor(() => expect(screen.getByRole('button', { name: 'Criteria' })).toBeEnabled())
    await userEvent.click(screen.getByRole('button', { name: 'Criteria' }))
    expect(criterion(6)).toBeInTheDocument()
    await userEvent.click(applyButton())
    expect(onApply).toHaveBeenCalledWith(c.text)
  })

  it('writes dates YYYY-MM-DD in English and DD/MM/YYYY in French, and sends YYYY-MM-DD', async () => {
    const { default: i18n } = await import('../../i18n')
    await i18n.changeLanguage('fr')
    const { onApply } = renderEditor(fixture.cases[0].text)
    const dateRow = await screen.findByRole('group', { name: 'Critère 2' })
    expect(within(dateRow).getByRole('group', { name: 'Valeur' })).toHaveTextContent('02/01/2026')
    await userEvent.click(within(dateRow).getByRole('button', { name: /^Choisir la date/ }))
    await userEvent.click(await screen.findByRole('gridcell', { name: '15' }))
    await waitFor(() => expect(within(dateRow).getByRole('group', { name: 'Valeur' })).toHaveTextContent('15/01/2026'))
    await userEvent.click(screen.getByRole('button', { name: 'Appliquer' }))
    expect(onApply).toHaveBeenCalledWith(fixture.cases[0].text.replace('2026-01-02', '2026-01-15'))
  })
})

describe('filter editor: building a filter', () => {
  it('offers the operators and value input of the chosen field', async () => {
    const { onApply } = renderEditor('')
    await userEvent.click(await screen.findByRole('button', { name: 'Add a criterion' }))
    const row = criterion(1)
    await chooseField(row, 'F:followed')
    await userEvent.click(within(row).getByRole('combobox', { name: 'Operator' }))
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['is'])
    await userEvent.keyboard('{Escape}')
    await userEvent.click(within(row).getByRole('button', { name: 'No' }))
    await userEvent.click(applyButton())
    expect(onApply).toHaveBeenLastCalledWith('followed equals false')
  })

  it('joins the rows by or when asked, escaping what the user typed', async () => {
    const { onApply } = renderEditor('')
    await userEvent.click(await screen.findByRole('button', { name: 'Add a criterion' }))
    await chooseField(criterion(1), 'F:name')
    await userEvent.type(within(criterion(1)).getByRole('textbox', { name: 'Value' }), 'a&b ')
    await userEvent.click(screen.getByRole('button', { name: 'Add a criterion' }))
    await chooseField(criterion(2), 'F:code')
    await userEvent.click(screen.getByRole('button', { name: 'At least one criterion (or)' }))
    await userEvent.click(applyButton())
    expect(onApply).toHaveBeenLastCalledWith('name contains a\\&b\\  | code contains \\0')
  })

  it('lets an enum, id or location criterion wait for its value without an error, then refuses to apply it empty', async () => {
    const { onApply } = renderEditor('')
    await userEvent.click(await screen.findByRole('button', { name: 'Add a criterion' }))
    const row = criterion(1)
    await chooseField(row, 'F:node_status')
    expect(within(row).queryByText('A value must be chosen')).not.toBeInTheDocument()
    expect(screen.queryByText('At least one error remains to be corrected')).not.toBeInTheDocument()
    await userEvent.click(within(row).getByRole('button', { name: 'E:validated' }))
    await userEvent.click(within(row).getByRole('button', { name: 'E:validated' }))
    expect(within(row).getByText('A value must be chosen')).toBeInTheDocument()
    expect(screen.getByText('At least one error remains to be corrected')).toBeInTheDocument()
    expect(applyButton()).toBeDisabled()
    await userEvent.click(within(row).getByRole('button', { name: 'E:validated' }))
    expect(within(row).queryByText('A value must be chosen')).not.toBeInTheDocument()
    await userEvent.click(applyButton())
    expect(onApply).toHaveBeenLastCalledWith('node_status oneOf validated')

    await chooseField(row, 'F:location')
    expect(within(row).queryByText('A value must be chosen')).not.toBeInTheDocument()
    await userEvent.click(applyButton())
    expect(within(row).getByText('A value must be chosen')).toBeInTheDocument()
    expect(applyButton()).toBeDisabled()
    expect(onApply).toHaveBeenCalledTimes(1)
  })

  it('searches ids once the text stops changing, then shows the choice', async () => {
    const { onApply, people } = renderEditor('')
    await userEvent.click(await screen.findByRole('button', { name: 'Add a criterion' }))
    const row = criterion(1)
    await chooseField(row, 'F:created_by')
    // Pasted: how many searches keys typed one by one cause depends on the machine's speed
    // (lib/useDebouncedValue.test.ts holds the debounce).
    await userEvent.click(within(row).getByRole('combobox', { name: 'Value' }))
    await userEvent.paste('Dup')
    await userEvent.click(await screen.findByRole('option', { name: 'Person 3' }))
    expect(people.search).toHaveBeenCalledTimes(1)
    expect(people.search).toHaveBeenCalledWith('Dup')
    expect(within(row).getByText('Person 3')).toBeInTheDocument()
    await userEvent.click(applyButton())
    expect(onApply).toHaveBeenLastCalledWith('created_by oneOf 3')
  })
})

describe('filter editor: text mode', () => {
  it("suggests an example written with the entity type's own fields", async () => {
    renderEditor('')
    await userEvent.click(await screen.findByRole('button', { name: 'Text' }))
    const placeholder = screen.getByRole('textbox', { name: 'Filter text' }).getAttribute('placeholder')
    expect(placeholder).toBe(`e.g. name contains workshop & created_date after ${new Date().getFullYear()}-01-01`)
  })

  it('shows the server’s error and where it is, and refuses to apply', async () => {
    const { onApply, fetchMock } = renderEditor('')
    await userEvent.click(await screen.findByRole('button', { name: 'Text' }))
    const beforeTyping = sentRequests(fetchMock, CHECK_CALL).length
    // Pasted, not typed: how many checks keys typed one by one cause depends on the machine's speed
    // (lib/useDebouncedValue.test.ts holds the debounce).
    await userEvent.click(screen.getByRole('textbox', { name: 'Filter text' }))
    await userEvent.paste('name contains !x')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Unexpected character (character 15)')
    expect(applyButton()).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Criteria' })).toBeDisabled()
    expect(onApply).not.toHaveBeenCalled()
    expect(screen.queryByText('An error occured')).not.toBeInTheDocument()
    // One check of the text, by a call whose refusal is no failed request.
    expect(sentRequests(fetchMock, CHECK_CALL)).toHaveLength(beforeTyping + 1)
    const answers = await Promise.all(fetchMock.mock.results.map((result) => result.value as Promise<Response>))
    expect(answers.filter((answer) => !answer.ok)).toEqual([])
  })

  it('opens a filter too complex for the editor in text mode only', async () => {
    const { onApply } = renderEditor(NESTED_TEXT)
    expect(await screen.findByText('This filter is too complex for the editor: it can only be edited as text.')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Filter text' })).toHaveValue(NESTED_TEXT)
    expect(screen.getByRole('button', { name: 'Criteria' })).toBeDisabled()
    expect(screen.queryByRole('group', { name: 'Criterion 1' })).not.toBeInTheDocument()
    await userEvent.click(applyButton())
    await waitFor(() => expect(onApply).toHaveBeenCalledWith(NESTED_TEXT))
  })

  it('opens a filter the server refuses on its text with the error', async () => {
    renderEditor('name contains !')
    expect(await screen.findByRole('alert')).toHaveTextContent('Unexpected character (character 15)')
    expect(screen.getByRole('textbox', { name: 'Filter text' })).toHaveValue('name contains !')
    expect(applyButton()).toBeDisabled()
  })
})
