/** A route parameter that must be an id; anything else is an unknown page. */
export function idParam(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined
}
