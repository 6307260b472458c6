import { describe, expect, it } from 'vitest';
import { timelineSteps } from './timeline.ts';

const at = (minute: number) => `2026-11-25T10:${String(minute).padStart(2, '0')}:00.000Z`;
const history = (...statuses: string[]) =>
  statuses.map((status, i) => ({ status: status as never, at: at(i) }));

describe('timelineSteps', () => {
  it('marks the step a moving transaction is at as current, later ones upcoming', () => {
    const steps = timelineSteps({
      status: 'SIGNED',
      statusHistory: history('PENDING', 'APPROVED', 'SIGNED'),
    });
    expect(steps.map((s) => [s.status, s.state])).toEqual([
      ['PENDING', 'done'],
      ['APPROVED', 'done'],
      ['SIGNED', 'current'],
      ['SUBMITTED', 'upcoming'],
      ['WAITING_CONFIRMATION', 'upcoming'],
      ['COMPLETED', 'upcoming'],
    ]);
  });

  it('draws a completed transaction with every step done, none current', () => {
    const steps = timelineSteps({
      status: 'COMPLETED',
      statusHistory: history(
        'PENDING',
        'APPROVED',
        'SIGNED',
        'SUBMITTED',
        'WAITING_CONFIRMATION',
        'COMPLETED',
      ),
    });
    expect(steps.every((s) => s.state === 'done')).toBe(true);
    expect(steps.at(-1)).toMatchObject({ status: 'COMPLETED', at: at(5), afterMs: 60_000 });
  });

  it('ends a declined transaction where it was declined', () => {
    const steps = timelineSteps({
      status: 'DECLINED',
      statusHistory: history('PENDING', 'DECLINED'),
    });
    expect(steps.map((s) => [s.status, s.state])).toEqual([
      ['PENDING', 'done'],
      ['DECLINED', 'failed'],
    ]);
  });
});
