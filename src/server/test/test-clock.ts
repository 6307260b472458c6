import type { Clock } from '../clock.ts';

/** A clock that only moves when told to. */
export class TestClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2030-01-01T12:30:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): Date {
    this.current += ms;
    return this.now();
  }

  set(at: Date | string): Date {
    this.current = new Date(at).getTime();
    return this.now();
  }
}
