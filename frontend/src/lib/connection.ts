/**
 * Whether Spot can reach its server: the browser says it is offline, or the last call to the server
 * failed before any answer (no network, the server out of reach); the next answer, whatever its status,
 * says it is back. The shell's offline notice shows it, and the error dialog stays quiet meanwhile.
 */
let unreachable = false
const listeners = new Set<() => void>()

function set(value: boolean): void {
  if (unreachable === value) return
  unreachable = value
  listeners.forEach((listener) => listener())
}

export const connection = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener)
    window.addEventListener('online', listener)
    window.addEventListener('offline', listener)
    return () => {
      listeners.delete(listener)
      window.removeEventListener('online', listener)
      window.removeEventListener('offline', listener)
    }
  },
  offline: (): boolean => !navigator.onLine || unreachable,
  /** A call got an answer. */
  reached: (): void => set(false),
  /** A call failed before any answer. */
  lost: (): void => set(true),
}
