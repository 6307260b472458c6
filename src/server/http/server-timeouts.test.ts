import { globalAgent } from 'node:http';
import { describe, expect, it } from 'vitest';
import { HTTP_SERVER_TIMEOUTS } from './server-timeouts.ts';

describe("the console's HTTP server timeouts", () => {
  it('keep an idle connection open well past the age at which Node’s clients stop reusing one', () => {
    // Equal ages race: a client that stalls can send on a connection the
    // server is closing at that moment, and is answered "socket hang up".
    // Node's global agent keeps this in an option its types do not declare.
    const { options } = globalAgent as typeof globalAgent & { options: { timeout?: number } };
    const clientReuse = options.timeout ?? 5_000;
    expect(HTTP_SERVER_TIMEOUTS.keepAliveTimeout).toBeGreaterThanOrEqual(clientReuse + 30_000);
  });

  it('bound a request’s headers within the whole request, checked more often than either', () => {
    const { headersTimeout, requestTimeout, connectionsCheckingInterval } = HTTP_SERVER_TIMEOUTS;
    expect(headersTimeout).toBeLessThanOrEqual(requestTimeout);
    expect(connectionsCheckingInterval).toBeLessThan(headersTimeout);
  });
});
