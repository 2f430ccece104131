import { ThemeProvider } from '@mui/material/styles'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { themeFor } from './theme'

/** The theme, with MUI's own texts in the interface language, following its changes. */
export function LanguageTheme({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation()
  return <ThemeProvider theme={themeFor(i18n.language)}>{children}</ThemeProvider>
}
