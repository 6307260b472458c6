import { QueryClient } from '@tanstack/react-query';
import { isRetryable } from './api-errors.ts';

export function createQueryClient(): QueryClient {
  return new QueryClient({
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
