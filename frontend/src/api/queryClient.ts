import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { ApiError } from './errors'
import { type ErrorHandlingMeta, reportError } from './errorReports'

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ErrorHandlingMeta
    mutationMeta: ErrorHandlingMeta
  }
}

const NETWORK_RETRIES = 2

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => reportError(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => reportError(error, mutation.meta),
    }),
    defaultOptions: {
      queries: {
        // The server answered: asking again gives the same answer. Network failures may pass.
        retry: (failures, error) => !(error instanceof ApiError) && failures < NETWORK_RETRIES,
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  })
}

export const queryClient = createQueryClient()
