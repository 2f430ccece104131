import Autocomplete from '@mui/material/Autocomplete'
import TextField from '@mui/material/TextField'
import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import i18n from '../i18n'
import { LanguageTheme } from './LanguageTheme'

function Picker() {
  return <Autocomplete options={['a', 'b']} value="a" renderInput={(params) => <TextField {...params} label="Choice" />} />
}

describe("MUI's own texts", () => {
  it('follow the interface language', async () => {
    await act(() => i18n.changeLanguage('fr'))
    render(
      <LanguageTheme>
        <Picker />
      </LanguageTheme>,
    )
    expect(screen.getByRole('button', { name: 'Ouvrir' })).toBeInTheDocument()
    expect(screen.getByLabelText('Vider')).toBeInTheDocument()

    await act(() => i18n.changeLanguage('en'))
    expect(screen.getByRole('button', { name: 'Open' })).toBeInTheDocument()
    expect(screen.getByLabelText('Clear')).toBeInTheDocument()
  })
})
