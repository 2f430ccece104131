import { useTranslation } from 'react-i18next'

/**
 * Message keys shared by the client's validation and the server's error codes, translated;
 * a server text that is not a key is shown as it came.
 */
export function useMessage(): (code: string | undefined) => string | undefined {
  const { t, i18n } = useTranslation()
  return (code) => {
    if (!code) return undefined
    const key = `codes.${code}`
    return i18n.exists(key) ? t(key) : code
  }
}
