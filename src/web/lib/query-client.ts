import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, isRetryable } from './api-errors.ts';

export interface QueryClientOptions {
  /**
   * Called when any query or mutation is answered 401: the session is gone
   * (expired, revoked, signed out in another tab).
   */
  onUnauthorized?: (error: ApiError, during: 'query' | 'mutation') => void;
}

export function createQueryClient(options: QueryClientOptions = {}): QueryClient {
  const onError = (during: 'query' | 'mutation') => (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) options.onUnauthorized?.(error, during);
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: onError('query') }),
    mutationCache: new MutationCache({ onError: onError('mutation') }),
    defaultOptions: {
      queries: {
        // Statuses move on their own; lists go stale quickly but not instantly,
        // so preloading on hover is not wasted.
        staleTime: 15_000,
        retry: (failureCount, error) => isRetryable(error) && failureCount < 2,
        // A loader that already failed should show its error, not silently
        // fire the same request again when the page mounts.
        retryOnMount: false,
      },
      mutations: { retry: false },
    },
  });
}
