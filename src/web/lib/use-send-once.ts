import type { MutateOptions, UseMutationResult } from '@tanstack/react-query';
import { useRef } from 'react';

/**
 * A mutation's `mutate` that sends at most one request at a time. A button
 * disabled while `isPending` is not enough: a double click delivers both
 * clicks before React renders the disabled button, and a decision sent twice
 * is refused the second time (409) and audited as a failed decision by that
 * member. The guard is a ref, set synchronously on the first click.
 */
export function useSendOnce<TData, TVariables>(
  mutation: Pick<UseMutationResult<TData, Error, TVariables>, 'mutate'>,
): (variables: TVariables, options?: MutateOptions<TData, Error, TVariables>) => void {
  const inFlight = useRef(false);
  return (variables, options) => {
    if (inFlight.current) return;
    inFlight.current = true;
    mutation.mutate(variables, {
      ...options,
      onSettled: (...args) => {
        inFlight.current = false;
        return options?.onSettled?.(...args);
      },
    });
  };
}
