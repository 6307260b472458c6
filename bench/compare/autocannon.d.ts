// The part of autocannon's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  interface Stats {
    average: number;
    mean: number;
    p50: number;
    p99: number;
    max: number;
    total: number;
  }
  interface Options {
    url: string;
    connections: number;
    /** Seconds to run, unless `amount` is given. */
    duration?: number;
    /** Requests to send in all, instead of a duration. */
    amount?: number;
    headers?: Record<string, string>;
    timeout?: number;
  }
  interface Result {
    requests: Stats;
    latency: Stats;
    throughput: Stats;
    non2xx: number;
    errors: number;
    timeouts: number;
    '2xx': number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
