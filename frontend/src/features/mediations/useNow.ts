import dayjs, { type Dayjs } from 'dayjs'
import { useEffect, useState } from 'react'

/** How often the mediation form reads the time again (spec 1 §9). */
export const NOW_REFRESH_MS = 60_000

/** The current time, read again every minute, for rules that depend on it. */
export function useNow(every = NOW_REFRESH_MS): Dayjs {
  const [now, setNow] = useState(() => dayjs())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(dayjs()), every)
    return () => window.clearInterval(timer)
  }, [every])
  return now
}
