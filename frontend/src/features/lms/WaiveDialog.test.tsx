import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import i18n from '../../i18n'
import { renderWithClient } from '../../test/render'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { WaiveButton } from './WaiveDialog'

const API = '/backend/api/v2'
const SEARCH = `GET ${API}/user/search`
const SATISFACTION = `GET ${API}/lms/courses/5/satisfaction`
const WAIVE = `POST ${API}/lms/items/12/waive`
const UNIT = { id: 12, name: 'Quiz final' }

const USERS = [
  { id: 3, displayName: 'Léa Martin' },
  { id: 4, displayName: 'Marc Petit' },
]

function server(waive = () => json({ itemId: 12, method: 'waived', satisfiedAt: '2026-11-20T09:30:00Z', reason: 'Tested Out' })) {
  return fakeServer({
    [SEARCH]: (request) => {
      const name = (new URL(request.url).searchParams.get('name') ?? '').toLowerCase()
      return json(USERS.filter((u) => u.displayName.toLowerCase().includes(name)).map((u) => ({ ...u, login: `u${u.id}`, firstName: '', lastName: '', externalId: null })))
    },
    [SATISFACTION]: (request) => {
      const learner = Number(new URL(request.url).searchParams.get('learnerId'))
      const items = learner === 4 ? [{ itemId: 12, method: 'waived', satisfiedAt: '2026-11-18T08:00:00Z', reason: 'Administrative' }] : []
      return json({ courseId: 5, learnerId: learner, satisfiedAt: null, items, canWaive: true })
    },
    [WAIVE]: waive,
  })
}

async function pickLearner(dialog: ReturnType<typeof within>, label: string, text: string, option: string) {
  await userEvent.type(dialog.getByRole('combobox', { name: label }), text)
  await userEvent.click(await screen.findByRole('option', { name: option }, { timeout: 3000 }))
}

afterEach(() => {
  vi.unstubAllGlobals()
  void i18n.changeLanguage('en')
})

describe("a unit's waiver", () => {
  it('waives the unit for the learner picked, with the reason chosen', async () => {
    const fetchMock = server()
    renderWithClient(<WaiveButton unit={UNIT} courseId={5} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Waive for a learner: Quiz final' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Waive Quiz final' }))
    expect(dialog.getByRole('button', { name: 'Waive' })).toBeDisabled()
    await pickLearner(dialog, 'Learner', 'léa', 'Léa Martin')
    expect(await dialog.findByText('This learner has not satisfied this unit yet.')).toBeInTheDocument()
    await userEvent.click(dialog.getByRole('combobox', { name: 'Reason' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Tested out' }))
    await userEvent.click(dialog.getByRole('button', { name: 'Waive' }))
    expect(await dialog.findByText('Léa Martin is waived from this unit.')).toBeInTheDocument()
    const sent = sentRequests(fetchMock, WAIVE)
    expect(sent).toHaveLength(1)
    expect(await sent[0].json()).toEqual({ learnerId: 3, reason: 'Tested Out' })
  })

  it('says when the learner already satisfied the unit, in French too', async () => {
    server()
    await i18n.changeLanguage('fr')
    renderWithClient(<WaiveButton unit={UNIT} courseId={5} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Dispenser un apprenant de Quiz final' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Dispenser de Quiz final' }))
    await pickLearner(dialog, 'Apprenant', 'marc', 'Marc Petit')
    expect(await dialog.findByText(/^Déjà dispensée le .* \(Décision administrative\)\.$/)).toBeInTheDocument()
    expect(dialog.getByRole('button', { name: 'Dispenser' })).toBeDisabled()
  })

  it("shows the server's refusal", async () => {
    server(() => errorBody(409, 'Conflict', 'lmsUnitAlreadySatisfied'))
    renderWithClient(<WaiveButton unit={UNIT} courseId={5} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Waive for a learner: Quiz final' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Waive Quiz final' }))
    await pickLearner(dialog, 'Learner', 'léa', 'Léa Martin')
    await dialog.findByText('This learner has not satisfied this unit yet.')
    await userEvent.click(dialog.getByRole('button', { name: 'Waive' }))
    expect(await dialog.findByText('This learner has already satisfied this unit (or was already waived from it)')).toBeInTheDocument()
  })
})
