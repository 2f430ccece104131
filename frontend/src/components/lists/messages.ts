import { useTranslation } from 'react-i18next'
import { PARSE_MESSAGE_KEYS } from '../../lib/querylang/errors'
import { useMessage } from '../../lib/messages'

/**
 * Translates the message keys the lists meet: the query language's parse messages, the codes of
 * saved filters (lists.codes), then the shared validation codes.
 */
export function useListMessage(): (code: string | undefined) => string | undefined {
  const { t, i18n } = useTranslation()
  const message = useMessage()
  return (code) => {
    if (!code) return undefined
    const parseKey = PARSE_MESSAGE_KEYS[code]
    if (parseKey) return t(parseKey)
    const listKey = `lists.codes.${code}`
    return i18n.exists(listKey) ? t(listKey) : message(code)
  }
}
