import { useTranslation } from 'react-i18next'
import type { ApiError } from '../api/errors'

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

/** The refusal of too many failed sign-in attempts, saying how long the server makes one wait. */
export function useThrottledMessage(): (error: ApiError) => string {
  const { t } = useTranslation()
  return ({ retryAfter }) => {
    if (retryAfter === undefined) return t('login.throttled')
    const wait = retryAfter < 60 ? t('login.waitSeconds', { seconds: retryAfter }) : t('login.waitMinutes', { minutes: Math.ceil(retryAfter / 60) })
    return t('login.throttledFor', { wait })
  }
}
