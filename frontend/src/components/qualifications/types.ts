import type { components } from '../../api/schema'

type Schemas = components['schemas']

/**
 * The dashboard element (spec 2 §3 'Dashboard element'): an item (a
 * qualification, a person or a module) with the number of its children obtained, and its children with
 * their validity.
 */
export type DashboardElement = Schemas['DashboardElement']
export type DashboardItem = Schemas['DashboardItem']
export type DashboardChild = Schemas['DashboardChild']
/** What an item or a child leads to; the page using the dashboard builds the address. */
export type DashboardLink = Schemas['DashboardLink']
export type ValidityState = Schemas['State']
