// The users page and the outbox page are one lazy chunk, both administrators' pages of the people: a
// chunk of the outbox's own re-split the shared chunks the initial bundle imports, which then outgrew
// its budget (scripts/check-bundle.mjs).
export { OutboxPage } from './OutboxPage'
export { UsersPage } from './UsersPage'
