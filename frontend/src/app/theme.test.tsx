import { ThemeProvider, decomposeColor, getContrastRatio } from '@mui/material/styles'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { themeFor } from './theme'

/** A colour with an alpha laid over an opaque one: the opaque colour seen. */
function over(top: string, bottom: string): string {
  const { values: t } = decomposeColor(top)
  const { values: b } = decomposeColor(bottom)
  const alpha = t[3] ?? 1
  return `rgb(${[0, 1, 2].map((i) => Math.round(t[i] * alpha + b[i] * (1 - alpha))).join(', ')})`
}

describe('toggle buttons', () => {
  it('keep their unpressed text at 4.5:1 on the shade under the pointer', () => {
    const theme = themeFor('fr')
    render(
      <ThemeProvider theme={theme}>
        <ToggleButtonGroup value="week" exclusive aria-label="Période">
          <ToggleButton value="week" aria-label="Semaines" />
          <ToggleButton value="month" aria-label="Mois" />
        </ToggleButtonGroup>
      </ThemeProvider>,
    )
    const hover = over(theme.palette.action.hover, theme.palette.background.paper)
    const text = getComputedStyle(screen.getByRole('button', { name: 'Mois' })).color
    expect(text).not.toBe('')
    expect(getContrastRatio(over(text, hover), hover)).toBeGreaterThanOrEqual(4.5)
  })
})
