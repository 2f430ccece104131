import { render, screen } from '@testing-library/react'
import { useForm } from 'react-hook-form'
import { describe, expect, it } from 'vitest'
import { TextInput } from './TextInput'

function Form({ readOnly }: { readOnly: boolean }) {
  const { control } = useForm({ defaultValues: { code: 'SECU' } })
  return <TextInput control={control} name="code" label="Code" required readOnly={readOnly} readOnlyHelp="A code cannot change" />
}

describe('a text field', () => {
  it('asks for a value when required', () => {
    render(<Form readOnly={false} />)
    expect(screen.getByRole('textbox', { name: 'Code' })).toBeRequired()
  })

  it('read-only, shows its value, asks for nothing and says why it cannot change', () => {
    render(<Form readOnly />)
    const field = screen.getByRole('textbox', { name: 'Code' })
    expect(field).toHaveValue('SECU')
    expect(field).toHaveAttribute('readonly')
    expect(field).not.toBeRequired()
    expect(field).toHaveAccessibleDescription('A code cannot change')
  })
})
