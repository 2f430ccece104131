import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import { useTranslation } from 'react-i18next'
import { chooseLanguage, LANGUAGES, type Language } from '../i18n'

/** FR / EN; `onDark` when drawn on the coloured header bar. */
export function LanguageSwitch({ onDark = false }: { onDark?: boolean }) {
  const { t, i18n } = useTranslation()
  const colours = onDark
    ? {
        color: 'rgba(255,255,255,0.8)',
        borderColor: 'rgba(255,255,255,0.5)',
        '&.Mui-selected, &.Mui-selected:hover': { color: '#fff', bgcolor: 'rgba(255,255,255,0.2)' },
      }
    : {}
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={i18n.language}
      onChange={(_event, language: Language | null) => language && chooseLanguage(language)}
      aria-label={t('language.choose')}
    >
      {LANGUAGES.map((language) => (
        <ToggleButton
          key={language}
          value={language}
          lang={language}
          aria-label={t(`language.names.${language}`)}
          sx={{ px: 1.25, py: 0.25, fontWeight: 600, ...colours }}
        >
          {t(`language.short.${language}`)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  )
}
