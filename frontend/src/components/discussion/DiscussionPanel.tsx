import ChatOutlined from '@mui/icons-material/ChatOutlined'
import Close from '@mui/icons-material/Close'
import Send from '@mui/icons-material/Send'
import SettingsSuggestOutlined from '@mui/icons-material/SettingsSuggestOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Drawer from '@mui/material/Drawer'
import IconButton from '@mui/material/IconButton'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { queryKeys } from '../../api/queryKeys'
import { isApiError } from '../../api/errors'
import { formatDateTime } from '../../lib/dates'
import { type Discussion, discussionQuery, type Message, MESSAGE_FIELDS, usePostMessage } from './api'
import { SystemText } from './systemText'

/** The query parameter that opens the panel (the teamwork menu's links carry it). */
export const DISCUSSION_PARAM = 'discussion'
export const PANEL_WIDTH = 600

interface DiscussionPanelProps {
  /** The item's discussion; nothing is shown without one. */
  discussionId: number | null | undefined
}

/** The discussion of an item: a button that opens it in a side panel (spec 1 §9: 600 px; the whole
 * width on a phone). The panel is open while the address carries ?discussion=open. */
export function DiscussionPanel({ discussionId }: DiscussionPanelProps) {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const open = params.get(DISCUSSION_PARAM) === 'open'
  const titleId = useId()
  if (discussionId === null || discussionId === undefined) return null

  const setOpen = (value: boolean) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        if (value) next.set(DISCUSSION_PARAM, 'open')
        else next.delete(DISCUSSION_PARAM)
        return next
      },
      { replace: true },
    )

  return (
    <>
      <Button size="small" variant="outlined" startIcon={<ChatOutlined />} onClick={() => setOpen(true)} aria-haspopup="dialog">
        {t('discussion.open')}
      </Button>
      <Drawer
        anchor="right"
        open={open}
        onClose={() => setOpen(false)}
        // Above the header, which sits above the navigation drawer.
        sx={{ zIndex: (theme) => theme.zIndex.modal }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { width: { xs: '100%', sm: PANEL_WIDTH } } } }}
      >
        <Stack sx={{ height: '100%', minHeight: 0 }}>
          <Stack direction="row" sx={{ alignItems: 'center', px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
            <Typography id={titleId} variant="h6" component="h2" sx={{ flexGrow: 1 }}>
              {t('discussion.title')}
            </Typography>
            <IconButton aria-label={t('actions.close')} onClick={() => setOpen(false)}>
              <Close />
            </IconButton>
          </Stack>
          {open && <DiscussionThread discussionId={discussionId} />}
        </Stack>
      </Drawer>
    </>
  )
}

function DiscussionThread({ discussionId }: { discussionId: number }) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  // Read afresh on each opening: actions on the page (a rating) add messages meanwhile.
  const { data: discussion, error, dataUpdatedAt } = useQuery({ ...discussionQuery(discussionId), staleTime: 0, refetchOnMount: 'always' })

  // Reading marks it read on the server: the teamwork menu is read again.
  useEffect(() => {
    if (dataUpdatedAt) void queryClient.invalidateQueries({ queryKey: queryKeys.discussions.unread })
  }, [dataUpdatedAt, queryClient])

  if (error) {
    return (
      <Typography sx={{ p: 2 }} color="error.text">
        {t('discussion.loadFailed')}
      </Typography>
    )
  }
  if (!discussion) {
    return <Typography sx={{ p: 2, color: 'text.secondary' }}>{t('discussion.loading')}</Typography>
  }
  return (
    <>
      <ItemHeading discussion={discussion} />
      <Messages messages={discussion.messages} />
      {discussion.can.post && <MessageInput discussionId={discussionId} />}
    </>
  )
}

function ItemHeading({ discussion }: { discussion: Discussion }) {
  const path = discussion.contexts[0] ?? []
  const item = path[path.length - 1]
  if (!item) return null
  return (
    <Box sx={{ px: 2, pt: 1.5 }}>
      <Typography variant="caption" sx={{ color: 'text.secondary' }} component="p">
        {path
          .slice(0, -1)
          .map((entry) => entry.name)
          .join(' › ')}
      </Typography>
      <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
        {item.name}
      </Typography>
    </Box>
  )
}

function Messages({ messages }: { messages: Message[] }) {
  const { t, i18n } = useTranslation()
  const end = useRef<HTMLDivElement>(null)
  // The newest is at the bottom, where the list opens and goes after each new message.
  useEffect(() => {
    const list = end.current?.parentElement
    if (list) list.scrollTop = list.scrollHeight
  }, [messages.length])

  const when = (date: string) => formatDateTime(date, i18n.language)
  return (
    <Box sx={{ flexGrow: 1, minHeight: 0, overflowY: 'auto', px: 2, py: 1.5 }} role="log" aria-label={t('discussion.messages')} tabIndex={0}>
      {messages.length === 0 && <Typography sx={{ color: 'text.secondary' }}>{t('discussion.empty')}</Typography>}
      <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {messages.map((message) => (
          <Box
            component="li"
            key={message.id}
            sx={{
              p: 1.5,
              borderRadius: 1,
              bgcolor: message.system ? 'transparent' : 'grey.100',
              border: message.system ? 1 : 0,
              borderColor: 'divider',
            }}
          >
            <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
              <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
                {message.author?.name ?? t('discussion.nobody')}
              </Typography>
              <Typography variant="caption" component="span" sx={{ color: 'text.secondary' }}>
                <time dateTime={message.date}>{when(message.date)}</time>
              </Typography>
            </Stack>
            {message.system ? (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5 }}>
                <SettingsSuggestOutlined fontSize="small" sx={{ color: 'text.secondary' }} aria-hidden />
                <Typography variant="body2" sx={{ fontStyle: 'italic' }}>
                  <SystemText system={message.system} />
                </Typography>
              </Stack>
            ) : (
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', mt: 0.5 }}>
                {message.content}
              </Typography>
            )}
          </Box>
        ))}
      </Stack>
      <div ref={end} />
    </Box>
  )
}

function MessageInput({ discussionId }: { discussionId: number }) {
  const { t } = useTranslation()
  const [text, setText] = useState('')
  const [refusal, setRefusal] = useState<string>()
  const send = usePostMessage(discussionId)
  const blank = text.trim() === ''

  const submit = () => {
    // Spec 1 §5: a message blank after trimming is not sent; the trimmed text is.
    if (blank || send.isPending) return
    setRefusal(undefined)
    send.mutate(text.trim(), {
      // What was typed stays until the server has it.
      onSuccess: () => setText(''),
      onError: (error) => {
        const code = isApiError(error) ? error.errors.find((e) => MESSAGE_FIELDS.includes(e.field))?.code : undefined
        if (code) setRefusal(code)
      },
    })
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      submit()
    }
  }

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-end', p: 2, borderTop: 1, borderColor: 'divider' }}>
      <TextField
        label={t('discussion.newMessage')}
        value={text}
        onChange={(event) => {
          setText(event.target.value)
          setRefusal(undefined)
        }}
        onKeyDown={onKeyDown}
        multiline
        maxRows={6}
        fullWidth
        error={refusal !== undefined}
        helperText={refusal ? t(`codes.${refusal}`) : t('discussion.hint')}
      />
      <IconButton color="primary" aria-label={t('discussion.send')} onClick={submit} disabled={blank || send.isPending} sx={{ mb: 3 }}>
        <Send />
      </IconButton>
    </Stack>
  )
}
