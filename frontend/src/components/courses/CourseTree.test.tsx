import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import i18n from '../../i18n'
import { renderWithClient } from '../../test/render'
import { errorBody, fakeServer, json } from '../../test/server'
import { CourseTree } from './CourseTree'
import { CONSIGNATION } from './testData'

const TREE = 'GET /backend/api/v2/lms/courses/3'

const item = (name: string) => screen.getByText(name).closest('[role="treeitem"]') as HTMLElement

describe('the course tree', () => {
  it('shows groups, resources and quizzes, each with the name of its kind, all groups open', async () => {
    fakeServer({ [TREE]: () => json(CONSIGNATION) })
    renderWithClient(<CourseTree courseId={3} />)
    const tree = await screen.findByRole('tree', { name: 'Content of Consignation' })
    expect(within(tree).getAllByRole('treeitem')).toHaveLength(4)
    expect(within(item('Bases')).getAllByText('Group')).toHaveLength(1)
    expect(within(item('Les six étapes')).getByText('Reading')).toBeInTheDocument()
    expect(within(item('Quiz final')).getByText('Quiz')).toBeInTheDocument()
    expect(item('Bases')).toHaveAttribute('aria-expanded', 'true')
    expect(item('Consignation')).toHaveAttribute('aria-expanded', 'true')
  })

  it('names the kinds in French too', async () => {
    await i18n.changeLanguage('fr')
    fakeServer({ [TREE]: () => json(CONSIGNATION) })
    renderWithClient(<CourseTree courseId={3} />)
    await screen.findByRole('tree', { name: 'Contenu de Consignation' })
    expect(within(item('Les six étapes')).getByText('Lecture')).toBeInTheDocument()
    expect(within(item('Bases')).getByText('Groupe')).toBeInTheDocument()
  })

  it('in pick mode, gives the resource or quiz clicked, with its course', async () => {
    fakeServer({ [TREE]: () => json(CONSIGNATION) })
    const onPick = vi.fn()
    renderWithClient(<CourseTree courseId={3} onPick={onPick} />)
    await userEvent.click(await screen.findByText('Quiz final'))
    expect(onPick).toHaveBeenLastCalledWith({ id: 12, type: 'quiz', name: 'Quiz final', courseId: 3 })
    await userEvent.click(screen.getByText('Les six étapes'))
    expect(onPick).toHaveBeenLastCalledWith({ id: 11, type: 'resource', name: 'Les six étapes', courseId: 3 })
    expect(onPick).toHaveBeenCalledTimes(2)
  })

  it('in pick mode, never gives a group: clicking one opens or closes it', async () => {
    fakeServer({ [TREE]: () => json(CONSIGNATION) })
    const onPick = vi.fn()
    renderWithClient(<CourseTree courseId={3} onPick={onPick} />)
    await userEvent.click(await screen.findByText('Bases'))
    expect(item('Bases')).toHaveAttribute('aria-expanded', 'false')
    await userEvent.click(screen.getByText('Bases'))
    expect(item('Bases')).toHaveAttribute('aria-expanded', 'true')
    await userEvent.click(screen.getByText('Consignation'))
    expect(item('Consignation')).toHaveAttribute('aria-expanded', 'false')
    expect(onPick).not.toHaveBeenCalled()
  })

  it('in pick mode, picks by keyboard: arrows to move, Enter to choose', async () => {
    fakeServer({ [TREE]: () => json(CONSIGNATION) })
    const onPick = vi.fn()
    renderWithClient(<CourseTree courseId={3} onPick={onPick} />)
    await screen.findByRole('tree')
    await userEvent.tab()
    expect(item('Consignation')).toHaveFocus()
    await userEvent.keyboard('{ArrowDown}{ArrowDown}')
    expect(item('Les six étapes')).toHaveFocus()
    await userEvent.keyboard('{Enter}')
    expect(onPick).toHaveBeenLastCalledWith({ id: 11, type: 'resource', name: 'Les six étapes', courseId: 3 })
    await userEvent.keyboard('{ArrowDown}')
    expect(item('Quiz final')).toHaveFocus()
    await userEvent.keyboard(' ')
    expect(onPick).toHaveBeenLastCalledWith({ id: 12, type: 'quiz', name: 'Quiz final', courseId: 3 })
    // Home, End and the first letter of a name move too.
    await userEvent.keyboard('{Home}')
    expect(item('Consignation')).toHaveFocus()
    await userEvent.keyboard('l')
    expect(item('Les six étapes')).toHaveFocus()
  })

  it('shows the picked element selected', async () => {
    fakeServer({ [TREE]: () => json(CONSIGNATION) })
    renderWithClient(<CourseTree courseId={3} onPick={() => undefined} pickedId={12} />)
    await screen.findByRole('tree')
    // The tree view marks the selection with aria-checked.
    expect(item('Quiz final')).toHaveAttribute('aria-checked', 'true')
    expect(item('Les six étapes')).toHaveAttribute('aria-checked', 'false')
    expect(item('Bases')).not.toHaveAttribute('aria-checked')
  })

  it('without pick mode, selects nothing', async () => {
    fakeServer({ [TREE]: () => json(CONSIGNATION) })
    renderWithClient(<CourseTree courseId={3} />)
    await userEvent.click(await screen.findByText('Quiz final'))
    expect(item('Quiz final')).not.toHaveAttribute('aria-checked', 'true')
  })

  it('says lmsElementNotFound for a removed or unknown course', async () => {
    fakeServer({ [TREE]: () => errorBody(404, 'Not Found', 'lmsElementNotFound') })
    renderWithClient(<CourseTree courseId={3} />)
    expect(await screen.findByText('LMS element not found (deleted ?)')).toBeInTheDocument()
    expect(screen.queryByRole('tree')).not.toBeInTheDocument()
    // Shown in place, not in the error dialog.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })
})
