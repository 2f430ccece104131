import { ChartsLocalizationProvider } from '@mui/x-charts/ChartsLocalizationProvider'
import { enUSLocaleText, frFRLocalText } from '@mui/x-charts/locales'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * The charts' own texts (their "Loading…" and "No data" overlays) in the interface language. They come
 * with the charts, which are read with the pages that show one, rather than with the shell's theme.
 */
export function ChartTexts({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation()
  return <ChartsLocalizationProvider localeText={i18n.language === 'en' ? enUSLocaleText : frFRLocalText}>{children}</ChartsLocalizationProvider>
}
