/**
 * How long Node's HTTP server waits for a client, whatever the app does:
 * - Idle keep-alive connections stay open longer than the load balancers and
 *   HTTP clients that reuse them (60 s is common): with Node's 5 s, a client
 *   reusing a connection the server is closing at that moment gets a reset
 *   (seen as ECONNRESET in a browser test's API request at load). Since Node
 *   18 an idle connection is not held to the headers timeout, which counts
 *   only while a request is arriving.
 * - A request's headers must arrive within 20 s and the whole request within
 *   30 s, or Node answers 408 and closes the connection (Node's defaults are
 *   60 s and 300 s, and slow bodies were seen held over 100 s). The app's
 *   own deadline for a body it reads is shorter (http/body-limit.ts); this
 *   bounds what nothing reads. Checked every 5 s instead of Node's 30.
 */
export const HTTP_SERVER_TIMEOUTS = {
  keepAliveTimeout: 65_000,
  headersTimeout: 20_000,
  requestTimeout: 30_000,
  connectionsCheckingInterval: 5_000,
} as const;
