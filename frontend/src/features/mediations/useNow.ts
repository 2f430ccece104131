import type { Dayjs } from 'dayjs'
import { useEffect, useState } from 'react'
import { organizationNow } from '../../lib/organizationClock'

/** How often the mediation form reads the time again (spec 1 §9). */
export const NOW_REFRESH_MS = 60_000

/**
 * The current time in the organisation's zone, read again every minute, for rules that depend on it
 * (today, the current minute) and for the pickers' defaults.
 */
export function useNow(every = NOW_REFRESH_MS): Dayjs {
  const [now, setNow] = useState(organizationNow)
  useEffect(() => {
    const timer = window.setInterval(() => setNow(organizationNow()), every)
    return () => window.clearInterval(timer)
  }, [every])
  return now
}
