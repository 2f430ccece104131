import Add from '@mui/icons-material/Add'
import ArrowDownward from '@mui/icons-material/ArrowDownward'
import ArrowUpward from '@mui/icons-material/ArrowUpward'
import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import EditOutlined from '@mui/icons-material/EditOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import FormHelperText from '@mui/material/FormHelperText'
import IconButton from '@mui/material/IconButton'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CoursePicker } from '../../components/courses/CoursePicker'
import { MapItemPicker } from '../../components/mapTree/MapItemPicker'
import { useMessage } from '../../lib/messages'
import { MediationElementDialog, UrlElementDialog } from './ElementDialogs'
import { contextText, firstLine } from './elementTexts'
import { ELEMENT_KINDS, type ElementKind, type FormElement, LAUNCH_MODES, type LaunchMode, moveElement, newKey } from './moduleForm'

/** The element being added (index undefined) or changed, by kind. */
interface Editing {
  kind: ElementKind
  index?: number
}

interface ElementsEditorProps {
  elements: FormElement[]
  onChange: (elements: FormElement[]) => void
  /** The list's own message (no element), a message key. */
  error?: string
  /** Messages of the server about single elements, by index. */
  elementErrors: Record<number, string[]>
  /** For the form's first-error focus. */
  addButtonRef?: (element: HTMLButtonElement | null) => void
}

/** The module's ordered elements: add (a menu of the four kinds), edit, remove, move up and down. */
export function ElementsEditor({ elements, onChange, error, elementErrors, addButtonRef }: ElementsEditorProps) {
  const { t } = useTranslation()
  const message = useMessage()
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null)
  const [editing, setEditing] = useState<Editing>()
  const headingId = useId()
  const errorId = useId()
  const rowButtons = useRef(new Map<string, HTMLButtonElement>())

  const put = (element: FormElement) => {
    if (editing?.index === undefined) onChange([...elements, element])
    else onChange(elements.map((current, index) => (index === editing.index ? element : current)))
    setEditing(undefined)
  }
  const keyOf = () => (editing?.index === undefined ? newKey() : elements[editing.index].key)
  const current = editing?.index === undefined ? undefined : elements[editing.index]

  const move = (index: number, by: -1 | 1, key: string, direction: 'up' | 'down') => {
    onChange(moveElement(elements, index, by))
    // The moved element keeps the focus on its button when it can still go that way, else the other one.
    const reachedEnd = (by === -1 && index + by === 0) || (by === 1 && index + by === elements.length - 1)
    const next = reachedEnd ? (direction === 'up' ? 'down' : 'up') : direction
    window.setTimeout(() => rowButtons.current.get(`${key}-${next}`)?.focus())
  }

  return (
    <Box component="section" aria-labelledby={headingId}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1, gap: 1, flexWrap: 'wrap' }}>
        <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t('modules.form.elements')}
        </Typography>
        <Button
          ref={addButtonRef}
          variant="outlined"
          startIcon={<Add />}
          aria-haspopup="menu"
          aria-describedby={error ? errorId : undefined}
          onClick={(event) => setMenuAnchor(event.currentTarget)}
        >
          {t('modules.form.addElement')}
        </Button>
      </Stack>
      <Menu anchorEl={menuAnchor} open={menuAnchor !== null} onClose={() => setMenuAnchor(null)}>
        {ELEMENT_KINDS.map((kind) => (
          <MenuItem
            key={kind}
            onClick={() => {
              setMenuAnchor(null)
              setEditing({ kind })
            }}
          >
            {t(`modules.kinds.${kind}`)}
          </MenuItem>
        ))}
      </Menu>
      {elements.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 1 }}>
          {t('modules.form.noElement')}
        </Typography>
      ) : (
        <Stack component="ol" spacing={1} sx={{ m: 0, p: 0, listStyle: 'none' }} aria-label={t('modules.form.elements')}>
          {elements.map((element, index) => {
            const summary = elementSummary(element, t)
            const errors = elementErrors[index] ?? []
            return (
              <Paper
                component="li"
                variant="outlined"
                key={element.key}
                aria-label={t('modules.form.elementAt', { position: index + 1, summary: summary.primary })}
                sx={(theme) => ({ px: 1.5, py: 1, borderColor: errors.length > 0 ? theme.palette.error.main : undefined })}
              >
                <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ alignItems: { sm: 'center' }, gap: 1 }}>
                  <Stack direction="row" sx={{ alignItems: 'baseline', gap: 1, flexGrow: 1, minWidth: 0 }}>
                    <Typography variant="body2" color="text.secondary" sx={{ flexShrink: 0 }}>
                      {index + 1}.
                    </Typography>
                    <Chip size="small" variant="outlined" label={t(`modules.kinds.${element.type}`)} sx={{ flexShrink: 0 }} />
                    <Box sx={{ minWidth: 0 }}>
                      <Typography sx={{ overflowWrap: 'anywhere' }}>{summary.primary}</Typography>
                      {summary.secondary && (
                        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                          {summary.secondary}
                        </Typography>
                      )}
                    </Box>
                  </Stack>
                  <Stack direction="row" sx={{ flexShrink: 0, alignSelf: { xs: 'flex-end', sm: 'center' } }}>
                    <IconButton
                      ref={(button) => void (button ? rowButtons.current.set(`${element.key}-up`, button) : rowButtons.current.delete(`${element.key}-up`))}
                      aria-label={t('modules.form.moveUp', { position: index + 1 })}
                      disabled={index === 0}
                      onClick={() => move(index, -1, element.key, 'up')}
                    >
                      <ArrowUpward />
                    </IconButton>
                    <IconButton
                      ref={(button) => void (button ? rowButtons.current.set(`${element.key}-down`, button) : rowButtons.current.delete(`${element.key}-down`))}
                      aria-label={t('modules.form.moveDown', { position: index + 1 })}
                      disabled={index === elements.length - 1}
                      onClick={() => move(index, 1, element.key, 'down')}
                    >
                      <ArrowDownward />
                    </IconButton>
                    <IconButton aria-label={t('modules.form.editElement', { position: index + 1 })} onClick={() => setEditing({ kind: element.type, index })}>
                      <EditOutlined />
                    </IconButton>
                    <IconButton
                      aria-label={t('modules.form.removeElement', { position: index + 1 })}
                      onClick={() => onChange(elements.filter((_, other) => other !== index))}
                    >
                      <DeleteOutline />
                    </IconButton>
                  </Stack>
                </Stack>
                {element.type === 'lms' && (
                  <TextField
                    select
                    size="small"
                    label={t('modules.form.launchMode')}
                    value={element.launchMode}
                    onChange={(event) => onChange(elements.map((other, at) => (at === index ? { ...element, launchMode: event.target.value as LaunchMode } : other)))}
                    sx={{ mt: 1, width: { xs: '100%', sm: 'auto' }, minWidth: { sm: 360 }, maxWidth: '100%' }}
                  >
                    {LAUNCH_MODES.map((mode) => (
                      <MenuItem key={mode} value={mode}>
                        {t(`modules.launchModes.${mode}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
                {errors.map((code) => (
                  <FormHelperText key={code} error>
                    {message(code)}
                  </FormHelperText>
                ))}
              </Paper>
            )
          })}
        </Stack>
      )}
      {error && (
        <FormHelperText id={errorId} error role="alert">
          {message(error)}
        </FormHelperText>
      )}

      {editing?.kind === 'spot' && (
        <MapItemPicker
          title={t('modules.elements.pickSpot')}
          onPick={(item) => put({ key: keyOf(), type: 'spot', spotItemType: item.type, spotItemId: item.id, name: item.name, context: item.context, readable: true })}
          onClose={() => setEditing(undefined)}
        />
      )}
      {editing?.kind === 'lms' && (
        <CoursePicker
          open
          value={current?.type === 'lms' && current.lmsCourseId !== null ? { id: current.lmsCourseId, courseId: current.courseId } : null}
          onPick={(item) =>
            put({ key: keyOf(), type: 'lms', lmsCourseId: item.id, courseId: item.courseId, name: item.name, lmsType: item.type, found: true, launchMode: current?.type === 'lms' ? current.launchMode : 'Normal' })
          }
          onClose={() => setEditing(undefined)}
        />
      )}
      {editing?.kind === 'mediation' && (
        <MediationElementDialog
          initial={current?.type === 'mediation' ? { title: current.title, description: current.description } : undefined}
          onSave={(values) => put({ key: keyOf(), type: 'mediation', ...values })}
          onClose={() => setEditing(undefined)}
        />
      )}
      {editing?.kind === 'url' && (
        <UrlElementDialog
          initial={current?.type === 'url' ? { url: current.url, label: current.label } : undefined}
          onSave={(values) => put({ key: keyOf(), type: 'url', ...values })}
          onClose={() => setEditing(undefined)}
        />
      )}
    </Box>
  )
}

/** What a row of the list says of its element. */
function elementSummary(element: FormElement, t: (key: string, options?: Record<string, unknown>) => string): { primary: string; secondary?: string } {
  switch (element.type) {
    case 'spot':
      if (!element.readable || element.name === null) return { primary: t('codes.insufficientRightsToView') }
      return { primary: `${element.name} (${t(`mapTree.types.${element.spotItemType}`)})`, secondary: contextText(element.context) || undefined }
    case 'mediation':
      return { primary: element.title, secondary: firstLine(element.description) }
    case 'url':
      return { primary: element.label, secondary: element.url }
    case 'lms':
      if (!element.found || element.name === null) return { primary: t('codes.lmsElementNotFound') }
      return { primary: element.lmsType ? `${element.name} (${t(`modules.lmsTypes.${element.lmsType}`)})` : element.name }
  }
}
