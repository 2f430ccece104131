import TextField from '@mui/material/TextField'
import { createContext, type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isApiError } from '../../../api/errors'
import { useMessage } from '../../../lib/messages'
import { isStaleVersion } from './api'
import { nodeSchema } from './NodeDialog'

/** A node being renamed in place, in the canvas or the outline: which one, and what to do with the name. */
export interface Renaming {
  code: number
  /** Sends the new name; rejects with the server's error (the field stays open with what was typed). */
  onSave: (name: string) => Promise<unknown>
  onCancel: () => void
  /** The last save was refused for a stale version: the page says so; leaving the field does not send again. */
  stale: boolean
}

export const RenamingContext = createContext<Renaming | undefined>(undefined)

interface InlineNameEditorProps {
  renaming: Renaming
  name: string
  /** Whether the field sits on the canvas (its message floats under the node, which has no room for it). */
  onCanvas?: boolean
}

/**
 * A node's name as a text field in place: autofocused with its text selected; Enter saves (nothing is
 * sent when unchanged), Escape cancels, leaving the field saves when changed. The name follows the node
 * form's rule (NodeDialog); a refused name keeps the field open with what was typed. The keys stay in
 * the field: neither the canvas nor the tree view moves on them.
 */
export function InlineNameEditor({ renaming, name, onCanvas = false }: InlineNameEditorProps) {
  const { t } = useTranslation()
  const message = useMessage()
  const [value, setValue] = useState(name)
  const [error, setError] = useState<string>()
  const inputRef = useRef<HTMLInputElement>(null)
  // What had the focus before (the canvas, the tree's item): it gets it back after Enter or Escape.
  const returnTo = useRef<Element | null>(null)
  const busy = useRef(false)

  useEffect(() => {
    returnTo.current = document.activeElement
    inputRef.current?.focus()
    inputRef.current?.select()
  }, [])

  const giveFocusBack = () => {
    const target = returnTo.current
    if (target instanceof HTMLElement && target.isConnected) target.focus()
  }

  const save = async (fromKey: boolean) => {
    if (busy.current) return
    if (value === name) {
      renaming.onCancel()
      if (fromKey) giveFocusBack()
      return
    }
    const checked = nodeSchema.shape.name.safeParse(value)
    if (!checked.success) {
      setError(checked.error.issues[0]?.message)
      return
    }
    setError(undefined)
    busy.current = true
    try {
      await renaming.onSave(value)
      if (fromKey) giveFocusBack()
    } catch (refused) {
      // A stale version is told by the page (the tree is read again); a refused name under the field.
      if (!isStaleVersion(refused) && isApiError(refused)) setError(refused.errors.find((e) => e.field === 'name')?.code ?? refused.errors[0]?.code)
      inputRef.current?.focus()
    } finally {
      busy.current = false
    }
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // The canvas's arrows, the tree's type-ahead and the page's shortcuts are not for the field.
    event.stopPropagation()
    if (event.key === 'Enter') {
      event.preventDefault()
      void save(true)
    } else if (event.key === 'Escape') {
      event.preventDefault()
      busy.current = true
      renaming.onCancel()
      giveFocusBack()
    }
  }

  const shown = message(error)
  return (
    <TextField
      inputRef={inputRef}
      value={value}
      onChange={(event) => setValue(event.target.value)}
      onKeyDown={onKeyDown}
      onBlur={() => {
        if (!renaming.stale && !busy.current) void save(false)
      }}
      // Neither a click nor a drag in the field selects, drags or pans behind it.
      onClick={(event) => event.stopPropagation()}
      onDoubleClick={(event) => event.stopPropagation()}
      onMouseDown={(event) => event.stopPropagation()}
      className="nodrag nopan"
      size="small"
      fullWidth
      error={shown !== undefined}
      helperText={shown}
      slotProps={{
        htmlInput: { 'aria-label': t('subjects.mindMap.nameOf', { name }) },
        formHelperText: onCanvas
          ? { sx: { position: 'absolute', top: '100%', left: 0, right: 0, mx: 0, mt: 0.5, px: 0.5, bgcolor: 'background.paper', borderRadius: 0.5, boxShadow: 1 } }
          : undefined,
      }}
      sx={{ '& .MuiInputBase-input': { py: 0.5, px: 1, fontSize: 'body2.fontSize' }, position: 'relative' }}
    />
  )
}
