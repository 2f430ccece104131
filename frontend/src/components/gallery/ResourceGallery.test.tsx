import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithClient } from '../../test/render'
import { fakeServer, json } from '../../test/server'
import type { Resource } from './api'
import { ResourceGallery } from './ResourceGallery'

const resource = (id: number, name: string): Resource => ({
  id,
  name,
  comment: '',
  link: '',
  resourceType: 'pdf',
  mediaType: 'application/pdf',
  fileUrl: `/backend/api/v2/resource/subject/20/${id}/file`,
  thumbnailUrl: null,
  size: 1000,
  ordering: id,
  parentId: 20,
  parentType: 'subject',
  version: 1,
})

describe('the resource gallery', () => {
  it('lifts and outlines the tile being moved, keeping its name at full contrast', async () => {
    fakeServer({
      'GET /backend/api/v2/resource/subject/20': () => json({ resources: [resource(1, 'Vidéo'), resource(2, 'Fiche')], can: { edit: true } }),
    })
    renderWithClient(<ResourceGallery parentType="subject" parentId={20} />)
    const handle = await screen.findByRole('button', { name: 'Move Vidéo' })
    const tile = handle.closest('li') as HTMLElement
    expect(tile).not.toHaveAttribute('data-dragging')
    handle.focus()
    fireEvent.keyDown(handle, { key: ' ', code: 'Space' })
    await waitFor(() => expect(tile).toHaveAttribute('data-dragging', 'true'))
    // A faded tile (opacity under 1) would bring its name under 4.5:1 against the page.
    expect(getComputedStyle(tile).opacity).not.toMatch(/^0/)
    expect(getComputedStyle(tile).outline).toMatch(/dashed/)
    expect(within(tile).getByText('Vidéo')).toBeInTheDocument()
  })
})
