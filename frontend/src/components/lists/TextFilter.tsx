/**
 * The text mode of the filter editor: the filter as the language writes it, with the server's error
 * (message and position) shown under it and the faulty character marked.
 * Props: value, onChange(text), error (the server's error for this very text), tooComplex (the text
 * is valid but cannot be shown as rows), fields (the entity type's, for the placeholder's example).
 */
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Link from '@mui/material/Link'
import TextField from '@mui/material/TextField'
import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { type QueryTextError, utf16Offset } from '../../lib/querylang/errors'
import { filterExample } from '../../lib/querylang/example'
import type { QueryField } from '../../lib/querylang/types'
import { useListMessage } from './messages'

interface TextFilterProps {
  value: string
  onChange: (text: string) => void
  error?: QueryTextError
  tooComplex: boolean
  fields: readonly QueryField[]
}

const MONOSPACE = '"Cascadia Mono", Consolas, "Liberation Mono", monospace'

export function TextFilter({ value, onChange, error, tooComplex, fields }: TextFilterProps) {
  const { t } = useTranslation()
  const example = filterExample(fields, t('lists.text.exampleWord'), new Date().getFullYear())
  const message = useListMessage()
  const input = useRef<HTMLTextAreaElement>(null)
  const at = error ? utf16Offset(value, error.position) : 0
  const showError = () => {
    input.current?.focus()
    input.current?.setSelectionRange(at, at + 1)
  }
  return (
    <Box>
      <TextField
        multiline
        minRows={2}
        fullWidth
        label={t('lists.text.label')}
        placeholder={example ? t('lists.text.placeholder', { example }) : undefined}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        error={error !== undefined}
        inputRef={input}
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: MONOSPACE } } }}
      />
      {error && (
        <Alert severity="error" sx={{ mt: 1 }} role="alert">
          {t('lists.text.errorAt', { message: message(error.message), position: error.position + 1 })}{' '}
          <Link component="button" type="button" onClick={showError} sx={{ verticalAlign: 'baseline' }}>
            {t('lists.text.showError')}
          </Link>
          <Box
            component="pre"
            aria-hidden
            sx={{ fontFamily: MONOSPACE, fontSize: 13, m: 0, mt: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
          >
            {value.slice(0, at)}
            <Box component="mark" sx={{ bgcolor: 'error.main', color: 'error.contrastText', borderRadius: 0.5, px: 0.25 }}>
              {value.slice(at, at + 1) || ' '}
            </Box>
            {value.slice(at + 1)}
          </Box>
        </Alert>
      )}
      {tooComplex && !error && (
        <Alert severity="info" sx={{ mt: 1 }}>
          {t('lists.text.tooComplex')}
        </Alert>
      )}
    </Box>
  )
}
