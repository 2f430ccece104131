import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import i18n from '../../i18n'
import { renderWithClient } from '../../test/render'
import { errorBody, fakeServer, json } from '../../test/server'
import { CoursePicker } from './CoursePicker'
import { COURSES, CONSIGNATION } from './testData'

const LIST = 'GET /backend/api/v2/lms/courses'
const TREE = 'GET /backend/api/v2/lms/courses/3'

const dialog = () => within(screen.getByRole('dialog', { name: 'Choose a learning platform element' }))

describe('the course picker', () => {
  it('offers the courses, then the chosen course tree, and gives the element picked in it', async () => {
    fakeServer({ [LIST]: () => json(COURSES), [TREE]: () => json(CONSIGNATION) })
    const onPick = vi.fn()
    renderWithClient(<CoursePicker open onClose={() => undefined} onPick={onPick} />)
    const courses = within(await screen.findByRole('list', { name: 'Courses' }))
    expect(courses.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Consignation1 reading · 1 quiz',
      'Gestes et postures2 readings · 0 quizzes',
    ])
    await userEvent.click(courses.getByRole('button', { name: /Consignation/ }))
    expect(await dialog().findByRole('tree', { name: 'Content of Consignation' })).toBeInTheDocument()
    expect(dialog().getByRole('heading', { name: 'Consignation' })).toBeInTheDocument()
    await userEvent.click(dialog().getByText('Quiz final'))
    expect(onPick).toHaveBeenCalledWith({ id: 12, type: 'quiz', name: 'Quiz final', courseId: 3 })
  })

  it('goes back to the courses to choose another', async () => {
    fakeServer({ [LIST]: () => json(COURSES), [TREE]: () => json(CONSIGNATION) })
    renderWithClient(<CoursePicker open onClose={() => undefined} onPick={() => undefined} />)
    await userEvent.click(await screen.findByRole('button', { name: /Consignation/ }))
    await userEvent.click(await dialog().findByRole('button', { name: 'Other course' }))
    expect(await dialog().findByRole('list', { name: 'Courses' })).toBeInTheDocument()
  })

  it('opens on the course of the element chosen before, with it selected', async () => {
    fakeServer({ [LIST]: () => json(COURSES), [TREE]: () => json(CONSIGNATION) })
    renderWithClient(<CoursePicker open onClose={() => undefined} onPick={() => undefined} value={{ id: 11, courseId: 3 }} />)
    await dialog().findByRole('tree')
    expect(dialog().getByText('Les six étapes').closest('[role="treeitem"]')).toHaveAttribute('aria-checked', 'true')
  })

  it('says lmsElementNotFound when the course is gone', async () => {
    fakeServer({ [LIST]: () => json(COURSES), [TREE]: () => errorBody(404, 'Not Found', 'lmsElementNotFound') })
    renderWithClient(<CoursePicker open onClose={() => undefined} onPick={() => undefined} value={{ id: 11, courseId: 3 }} />)
    expect(await dialog().findByText('LMS element not found (deleted ?)')).toBeInTheDocument()
    // Another course can still be chosen.
    expect(dialog().getByRole('button', { name: 'Other course' })).toBeInTheDocument()
  })

  it('says when the platform has no course, and closes on Cancel', async () => {
    await i18n.changeLanguage('fr')
    fakeServer({ [LIST]: () => json([]) })
    const onClose = vi.fn()
    renderWithClient(<CoursePicker open onClose={onClose} onPick={() => undefined} />)
    const picker = within(screen.getByRole('dialog', { name: 'Choisir un élément de la plateforme de formation' }))
    expect(await picker.findByText("Aucun cours sur la plateforme de formation pour l'instant.")).toBeInTheDocument()
    await userEvent.click(picker.getByRole('button', { name: 'Annuler' }))
    expect(onClose).toHaveBeenCalled()
  })

  it('shows nothing while closed', () => {
    fakeServer({ [LIST]: () => json(COURSES) })
    renderWithClient(<CoursePicker open={false} onClose={() => undefined} onPick={() => undefined} />)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })
})
