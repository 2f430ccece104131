import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import { useTranslation } from 'react-i18next'
import { api, data } from '../api/client'
import { reportError } from '../api/errorReports'
import { chooseLanguage, LANGUAGES, type Language } from '../i18n'
import { getToken } from '../lib/session'

/** The language chosen, then, for a signed-in user, saved on the server: what it writes for them follows it. */
async function switchTo(language: Language): Promise<void> {
  await chooseLanguage(language)
  if (getToken() !== undefined) await data(api.POST('/backend/api/v2/account/language', { body: { language } }))
}

/** FR / EN; `onDark` when drawn on the coloured header bar. */
export function LanguageSwitch({ onDark = false }: { onDark?: boolean }) {
  const { t, i18n } = useTranslation()
  // On the bar, white text and the chosen language white with the bar's colour as text: a translucent
  // white under white text fell to 3.5:1.
  const colours = onDark
    ? {
        color: 'common.white',
        borderColor: 'rgba(255,255,255,0.7)',
        '&:hover': { bgcolor: 'rgba(255,255,255,0.12)' },
        '&.Mui-selected, &.Mui-selected:hover': { color: 'primary.text', bgcolor: 'common.white' },
      }
    : {}
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={i18n.language}
      onChange={(_event, language: Language | null) => {
        // A text file that could not be read (offline) leaves the page in the language it was in.
        if (language) switchTo(language).catch((error: unknown) => reportError(error instanceof Error ? error : new Error(String(error))))
      }}
      aria-label={t('language.choose')}
    >
      {LANGUAGES.map((language) => (
        <ToggleButton
          key={language}
          value={language}
          lang={language}
          // The name starts with the visible text, so that a user who says "EN" reaches it (label in name).
          aria-label={`${t(`language.short.${language}`)} ${t(`language.names.${language}`)}`}
          sx={{ px: 1.25, py: 0.25, fontWeight: 600, ...colours }}
        >
          {t(`language.short.${language}`)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  )
}
