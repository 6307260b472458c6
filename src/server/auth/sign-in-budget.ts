/**
 * Pre-authentication work has a fixed budget (docs/security.md). A
 * sign-in costs a password check — scrypt, 50–100 ms of a core on libuv's
 * thread pool, whose four threads also read static files, resolve names and
 * compress answers — and, before it, a few queries (on PGlite, on the main
 * thread). 300 anonymous sign-ins at once filled the pool, and a signed-in
 * list read waited 12 s. So, per server process:
 *
 * - at most `inProgress` sign-ins are between arriving and their check's
 *   end; one more is refused at once, before any query, with 503
 *   SIGN_IN_BUSY and Retry-After — a concurrency limit with a bounded
 *   queue, as ASP.NET Core's concurrency limiter or a proxy's connection
 *   queue shed load, rather than a queue without end;
 * - at most `perAddress` of them come from one address; one more is
 *   refused with 429 LOGIN_RATE_LIMITED, so one address cannot take the
 *   whole budget, and a burst from one address is refused before it costs
 *   a query;
 * - at most `checksAtOnce` passwords are checked at the same moment; the
 *   others admitted wait their turn, in order.
 *
 * In memory, per process: the cores and the thread pool are the process's.
 * The throttle (rate-limit.ts) still decides, in the database, whether an
 * admitted sign-in is checked at all.
 */

export interface SignInLimits {
  checksAtOnce: number;
  inProgress: number;
  perAddress: number;
}

export type Admission =
  | {
      admitted: true;
      /** Runs the password check in its turn. */
      check<T>(run: () => Promise<T>): Promise<T>;
      /** Ends the sign-in's share of the budget; call once, whatever happened. */
      leave(): void;
    }
  | { admitted: false; refusal: 'busy' | 'address' };

export class SignInBudget {
  private inProgress = 0;
  private readonly fromAddress = new Map<string, number>();
  /** Check slots taken, a slot handed to a waiter included. */
  private slots = 0;
  private readonly waiting: Array<() => void> = [];
  private checking = 0;
  private mostChecking = 0;

  constructor(readonly limits: SignInLimits) {}

  /** The most password checks that have run at the same moment. */
  get peak(): number {
    return this.mostChecking;
  }

  admit(address: string): Admission {
    if (this.inProgress >= this.limits.inProgress) return { admitted: false, refusal: 'busy' };
    const fromHere = this.fromAddress.get(address) ?? 0;
    if (fromHere >= this.limits.perAddress) return { admitted: false, refusal: 'address' };
    this.inProgress += 1;
    this.fromAddress.set(address, fromHere + 1);
    let left = false;
    return {
      admitted: true,
      check: (run) => this.check(run),
      leave: () => {
        if (left) return;
        left = true;
        this.inProgress -= 1;
        const remaining = (this.fromAddress.get(address) ?? 1) - 1;
        if (remaining > 0) this.fromAddress.set(address, remaining);
        else this.fromAddress.delete(address);
      },
    };
  }

  private async check<T>(run: () => Promise<T>): Promise<T> {
    if (this.slots < this.limits.checksAtOnce) this.slots += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.checking += 1;
    this.mostChecking = Math.max(this.mostChecking, this.checking);
    try {
      return await run();
    } finally {
      this.checking -= 1;
      // The slot passes straight to the next in line: nothing can start in between.
      const next = this.waiting.shift();
      if (next) next();
      else this.slots -= 1;
    }
  }
}

/**
 * The process's budget. One check at a time keeps, on two cores, a core
 * and three pool threads for everything else; 16 in progress bounds the
 * queries a burst costs and the wait of the last admitted (about 16 checks);
 * 8 from one address lets an office behind one address sign in together.
 * The bench's sign-in-abuse section measures it.
 */
export const signInBudget = new SignInBudget({ checksAtOnce: 1, inProgress: 16, perAddress: 8 });
