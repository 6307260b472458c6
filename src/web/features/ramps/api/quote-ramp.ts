import { useMutation } from '@tanstack/react-query';
import { quoteRamp } from '#contract/endpoints/ramp-writes.ts';
import type { RampIntentInput } from '#contract/ramps.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { bestFirst } from '../quotes.ts';

/**
 * Every provider's price for an intent, best first. Sent as a mutation: a
 * quote is a moment's price the member asks for (and asks again for), not
 * data the page keeps fresh on its own.
 */
export function useQuoteRamp() {
  return useMutation({
    mutationFn: async (intent: RampIntentInput) => {
      const answer = await apiClient.call(quoteRamp, { body: { intent } });
      return { intent, quotes: bestFirst(answer.quotes) };
    },
  });
}
