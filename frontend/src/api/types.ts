import type { components } from './schema'

type Schemas = components['schemas']

export type CurrentUser = Schemas['UserWithPermissions']
export type User = Schemas['UserOut']
export type Group = Schemas['GroupOut']
export type GroupWithMembers = Schemas['GroupWithMembers']
export type GroupRef = Schemas['GroupRef']
export type IdentityProvider = Schemas['IdentityProviderOut']
/** An item of the map (site, cartography, function, activity) as links and breadcrumbs show it. */
export type ContextEntry = Schemas['ContextEntry']
export type MapItemName = Schemas['MapItemName']
export type MapItemType = MapItemName['type']
