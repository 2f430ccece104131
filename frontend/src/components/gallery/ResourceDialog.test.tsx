import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithClient } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import type { Resource } from './api'
import { ResourceDialog } from './ResourceDialog'

const PARENT = { parentType: 'subject', parentId: 7 }
const URL_ = '/backend/api/v2/resource/subject/7/3/update'

const pdf: Resource = {
  id: 3,
  parentType: 'subject',
  parentId: 7,
  resourceType: 'pdf',
  name: 'Notice',
  link: 'notice.pdf',
  comment: '',
  ordering: 0,
  mediaType: 'application/pdf',
  size: 100,
  fileUrl: '/backend/api/v2/resource/subject/7/3/file?v=ab',
  thumbnailUrl: null,
  version: 2,
}

describe('the resource dialog', () => {
  it('locks the type of a resource being edited and sends it unchanged', async () => {
    const server = fakeServer({ [`POST ${URL_}`]: () => json({ ...pdf, name: 'Notice 2' }) })
    const onClose = vi.fn()
    renderWithClient(<ResourceDialog parent={PARENT} resource={pdf} onClose={onClose} />)
    const type = screen.getByRole('combobox', { name: 'Type' })
    expect(type).toHaveAttribute('aria-disabled', 'true')
    expect(screen.getByText("A resource's type does not change")).toBeInTheDocument()
    expect(screen.queryByLabelText('File to send')).not.toBeInTheDocument()
    const name = screen.getByRole('textbox', { name: 'Name' })
    await userEvent.clear(name)
    await userEvent.type(name, 'Notice 2')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    const [sent] = sentRequests(server, `POST ${URL_}`)
    expect(await sent?.json()).toEqual({ name: 'Notice 2', link: 'notice.pdf', comment: '', version: 2, resourceType: 'pdf' })
  })

  it('offers every type on add', async () => {
    fakeServer({})
    renderWithClient(<ResourceDialog parent={PARENT} onClose={() => undefined} />)
    const type = screen.getByRole('combobox', { name: 'Type' })
    expect(type).not.toHaveAttribute('aria-disabled')
    await userEvent.click(type)
    const options = screen.getAllByRole('option').map((option) => option.textContent)
    expect(options).toEqual(['Image', 'PDF', 'File', 'Link', 'YouTube video'])
  })

  it("shows the server's refusal on its field and keeps what was typed", async () => {
    fakeServer({ [`POST ${URL_}`]: () => errorBody(400, 'Bad Request', 'atLeastOneErrorLeft', [{ field: 'link', code: 'notValidYoutubeUrl' }]) })
    const video: Resource = { ...pdf, resourceType: 'youtube', link: 'dQw4w9WgXcQ', fileUrl: null, mediaType: null, size: null }
    const onClose = vi.fn()
    renderWithClient(<ResourceDialog parent={PARENT} resource={video} onClose={onClose} />)
    const link = screen.getByRole('textbox', { name: 'YouTube video address' })
    expect(link).toHaveValue('https://www.youtube.com/watch?v=dQw4w9WgXcQ')
    await userEvent.type(screen.getByRole('textbox', { name: 'Comment' }), 'à revoir')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('This is not a valid YouTube address')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveValue('à revoir')
    expect(onClose).not.toHaveBeenCalled()
  })
})
