import CloseIcon from '@mui/icons-material/Close'
import SearchIcon from '@mui/icons-material/Search'
import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import IconButton from '@mui/material/IconButton'
import InputBase from '@mui/material/InputBase'
import Paper from '@mui/material/Paper'
import Popper from '@mui/material/Popper'
import Typography from '@mui/material/Typography'
import useMediaQuery from '@mui/material/useMediaQuery'
import { alpha, useTheme } from '@mui/material/styles'
import { useQueries, useQuery } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { useDebouncedValue } from '../../lib/useDebouncedValue'
import {
  CATEGORIES,
  entryPath,
  resultPath,
  searchCategoryQuery,
  searchQuery,
  type Category,
  type CategoryResults,
  type ContextEntry,
  type SearchResult,
} from './api'

/** The name with its matched spans in <mark>. */
export function highlight(name: string, matches: SearchResult['matches']): ReactNode[] {
  const parts: ReactNode[] = []
  let at = 0
  for (const { start, length } of [...matches].sort((a, b) => a.start - b.start)) {
    if (start < at || length <= 0) continue
    if (start > at) parts.push(name.slice(at, start))
    parts.push(<mark key={start}>{name.slice(start, start + length)}</mark>)
    at = start + length
  }
  if (at < name.length) parts.push(name.slice(at))
  return parts
}

/** One line of the popup the keyboard moves through: a result, or a category's "show more". */
type Line = { kind: 'result'; category: Category; result: SearchResult } | { kind: 'more'; category: Category }

const lineKey = (line: Line) => (line.kind === 'result' ? `${line.category}-${line.result.id}` : `${line.category}-more`)

/** The header's global search (spec 1 §2): a combobox whose popup lists the four categories, each
 * with its count, its first results and a "show more" for 30; results carry their context as chips
 * and their name with the matched text highlighted. On a phone the field folds into an icon. */
export function SearchBar() {
  const { t } = useTranslation()
  const theme = useTheme()
  const phone = useMediaQuery(theme.breakpoints.down('sm'))
  const navigate = useNavigate()
  const id = useId()
  const listboxId = `${id}-listbox`
  const [anchor, setAnchor] = useState<HTMLDivElement | null>(null)
  const inputRef = useRef<HTMLInputElement>(null)
  const [text, setText] = useState('')
  const [unfolded, setUnfolded] = useState(false)
  const [open, setOpen] = useState(false)
  const wanted = text.trim()
  const debounced = useDebouncedValue(wanted)
  const searched = wanted === '' ? '' : debounced
  // The line the keyboard is on and the categories shown expanded, for one text: a new text collapses
  // the categories and forgets the line.
  const [activeFor, setActiveFor] = useState({ text: '', index: -1 })
  const [expandedFor, setExpandedFor] = useState<{ text: string; categories: Category[] }>({ text: '', categories: [] })
  const active = activeFor.text === searched ? activeFor.index : -1
  const expanded = expandedFor.text === searched ? expandedFor.categories : []
  const setActive = (index: number) => setActiveFor({ text: searched, index })

  const { data: found, isFetching, isError } = useQuery(searchQuery(searched))
  const more = useQueries({
    queries: CATEGORIES.map((category) => searchCategoryQuery(searched, category, expanded.includes(category))),
  })

  const categoryResults = (category: Category, index: number): CategoryResults | null | undefined => {
    const wider = expanded.includes(category) ? more[index].data?.[category] : undefined
    return wider ?? found?.[category]
  }
  const sections = CATEGORIES.map((category, index) => ({ category, results: categoryResults(category, index) }))
  const lines: Line[] = sections.flatMap(({ category, results }) => [
    ...(results?.results ?? []).map((result): Line => ({ kind: 'result', category, result })),
    ...(results && results.totalItems > results.results.length && !expanded.includes(category)
      ? [{ kind: 'more', category } as Line]
      : []),
  ])
  const showing = open && searched !== '' && found !== undefined
  const empty = found !== undefined && sections.every(({ results }) => !results || results.totalItems === 0)

  const reset = () => {
    setText('')
    setOpen(false)
    setUnfolded(false)
    inputRef.current?.blur()
  }

  const go = (path: string | null) => {
    if (path === null) return
    reset()
    void navigate(path)
  }

  const choose = (line: Line) => {
    if (line.kind === 'result') return go(resultPath(line.result))
    setExpandedFor({ text: searched, categories: [...expanded, line.category] })
    inputRef.current?.focus()
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault()
      if (showing) {
        setOpen(false)
        setActive(-1)
      } else if (text) setText('')
      else if (phone) setUnfolded(false)
      return
    }
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!showing) return setOpen(true)
      if (lines.length === 0) return
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive(active < 0 ? (step > 0 ? 0 : lines.length - 1) : (active + step + lines.length) % lines.length)
      return
    }
    if (event.key === 'Enter' && showing && active >= 0 && active < lines.length) {
      event.preventDefault()
      choose(lines[active])
    }
  }

  const activeLine = showing && active >= 0 && active < lines.length ? lines[active] : null
  const optionId = (line: Line) => `${id}-${lineKey(line)}`

  useEffect(() => {
    if (activeLine) document.getElementById(optionId(activeLine))?.scrollIntoView?.({ block: 'nearest' })
  })

  if (phone && !unfolded) {
    return (
      <IconButton color="inherit" aria-label={t('search.open')} onClick={() => setUnfolded(true)}>
        <SearchIcon />
      </IconButton>
    )
  }

  const field = (
    <Box
      ref={setAnchor}
      sx={{
        display: 'flex',
        alignItems: 'center',
        borderRadius: 1,
        // Darker than the bar, so that white text keeps its contrast.
        bgcolor: alpha(theme.palette.common.black, 0.18),
        '&:hover, &:focus-within': { bgcolor: alpha(theme.palette.common.black, 0.28) },
        width: phone ? '100%' : { sm: 220, md: 320 },
        pl: 1,
      }}
    >
      <SearchIcon fontSize="small" aria-hidden />
      <InputBase
        inputRef={inputRef}
        value={text}
        autoFocus={phone}
        placeholder={t('search.placeholder')}
        onChange={(event) => {
          setText(event.target.value)
          setOpen(true)
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        sx={{ color: 'inherit', flexGrow: 1, ml: 1, '& input::placeholder': { opacity: 0.85 } }}
        inputProps={{
          role: 'combobox',
          'aria-label': t('search.label'),
          'aria-autocomplete': 'list',
          'aria-expanded': showing,
          'aria-controls': listboxId,
          'aria-activedescendant': activeLine ? optionId(activeLine) : undefined,
          autoComplete: 'off',
          spellCheck: false,
        }}
      />
      {text !== '' && (
        <IconButton
          size="small"
          color="inherit"
          aria-label={t('search.clear')}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => {
            setText('')
            inputRef.current?.focus()
          }}
        >
          <CloseIcon fontSize="small" />
        </IconButton>
      )}
      {phone && (
        <IconButton size="small" color="inherit" aria-label={t('search.close')} onClick={reset}>
          <CloseIcon fontSize="small" />
        </IconButton>
      )}
    </Box>
  )

  return (
    <Box
      sx={
        phone
          ? { position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', px: 1, bgcolor: 'primary.main', zIndex: 1 }
          : { position: 'relative' }
      }
    >
      {field}
      {/* Always in the page, so that the combobox's aria-controls names an element. */}
      <Popper
        open={showing}
        anchorEl={anchor}
        placement="bottom-end"
        keepMounted
        sx={{ zIndex: theme.zIndex.modal, width: phone ? '100%' : 480, maxWidth: '100vw' }}
      >
        <Paper
          elevation={8}
          // Clicks in the popup keep the focus in the field, which would close it on blur.
          onMouseDown={(event) => event.preventDefault()}
          sx={{ maxHeight: '70vh', overflowY: 'auto', py: 1 }}
        >
          <Box component="ul" role="listbox" id={listboxId} aria-label={t('search.results')} sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {sections.map(({ category, results }) => {
              const titleId = `${id}-${category}-title`
              return (
                <Box component="li" role="presentation" key={category}>
                  <Box component="ul" role="group" aria-labelledby={titleId} sx={{ listStyle: 'none', m: 0, p: 0 }}>
                    <Typography
                      component="li"
                      role="presentation"
                      id={titleId}
                      variant="overline"
                      sx={{ display: 'block', px: 2, pt: 0.5, color: 'text.secondary', lineHeight: 2 }}
                    >
                      {t(results?.more ? 'search.titleMore' : 'search.title', {
                        category: t(`search.categories.${category}`),
                        count: results?.totalItems ?? 0,
                      })}
                    </Typography>
                    {(results?.results ?? []).map((result) => {
                      const line: Line = { kind: 'result', category, result }
                      const selected = activeLine !== null && lineKey(activeLine) === lineKey(line)
                      return (
                        <Option key={result.id} id={optionId(line)} selected={selected} onClick={() => choose(line)}>
                          <ResultLine result={result} onChip={go} />
                        </Option>
                      )
                    })}
                    {lines.some((line) => line.kind === 'more' && line.category === category) && (
                      <Option
                        id={optionId({ kind: 'more', category })}
                        selected={activeLine?.kind === 'more' && activeLine.category === category}
                        onClick={() => choose({ kind: 'more', category })}
                      >
                        <Typography variant="body2" color="primary" sx={{ fontWeight: 500 }}>
                          {t('search.showMore', { category: t(`search.categories.${category}`) })}
                        </Typography>
                      </Option>
                    )}
                  </Box>
                </Box>
              )
            })}
          </Box>
          <Box aria-live="polite" sx={{ px: 2 }}>
            {isError && <Typography variant="body2">{t('search.failed')}</Typography>}
            {!isError && empty && !isFetching && <Typography variant="body2">{t('search.nothing', { text: searched })}</Typography>}
            {searched.length > 0 && searched.length < 3 && (
              <Typography variant="caption" color="text.secondary">
                {t('search.shortText')}
              </Typography>
            )}
          </Box>
        </Paper>
      </Popper>
    </Box>
  )
}

function Option({ id, selected, onClick, children }: { id: string; selected: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <Box
      component="li"
      role="option"
      id={id}
      aria-selected={selected}
      // Focusable, out of the Tab order, as MUI's Autocomplete options: the focus stays in the field
      // and the arrows move through the options (aria-activedescendant), scrolling the popup to each.
      tabIndex={-1}
      onClick={onClick}
      sx={{
        px: 2,
        py: 0.75,
        cursor: 'pointer',
        bgcolor: selected ? 'action.selected' : undefined,
        '&:hover': { bgcolor: selected ? 'action.selected' : 'action.hover' },
        '& mark': { bgcolor: 'warning.light', color: 'inherit', borderRadius: 0.5 },
      }}
    >
      {children}
    </Box>
  )
}

/** A result: its context as chips (those of a cartography, function or subject lead to its page),
 * then its name with the matched text highlighted. */
function ResultLine({ result, onChip }: { result: SearchResult; onChip: (path: string | null) => void }) {
  return (
    <>
      {result.context.length > 0 && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mb: 0.25 }}>
          {result.context.map((entry: ContextEntry) => {
            const path = entryPath(entry.type, entry.id)
            // Options hold no control of their own (ARIA): a chip is followed with the mouse, the
            // keyboard follows the result itself (whose page shows the same context as links).
            return (
              <Box
                component="span"
                key={`${entry.type}-${entry.id}`}
                data-path={path ?? undefined}
                onClick={
                  path
                    ? (event) => {
                        event.stopPropagation()
                        onChip(path)
                      }
                    : undefined
                }
                sx={{ display: 'inline-flex', cursor: path ? 'pointer' : 'default', '&:hover .MuiChip-root': path ? { bgcolor: 'action.hover' } : {} }}
              >
                <Chip size="small" variant="outlined" label={entry.name} component="span" sx={{ maxWidth: 180, height: 20, fontSize: 12 }} />
              </Box>
            )
          })}
        </Box>
      )}
      <Typography variant="body2">{highlight(result.name, result.matches)}</Typography>
    </>
  )
}
