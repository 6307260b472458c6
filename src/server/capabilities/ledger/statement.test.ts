import { describe, expect, it } from 'vitest';
import { statementPlan } from './statement.ts';

const at = (iso: string) => new Date(iso);

describe('a statement’s plan: whole UTC days from the summary, the parts of a day at either end from the movements', () => {
  it('a month in UTC is whole days only, its opening the closing of the day before', () => {
    expect(statementPlan(at('2030-03-01T00:00:00Z'), at('2030-04-01T00:00:00Z'))).toEqual({
      openingDay: '2030-03-01',
      openingPart: null,
      days: { from: '2030-03-01', to: '2030-04-01' },
      parts: [],
    });
  });

  it('a month in New York (UTC−5) starts and ends five hours into a UTC day', () => {
    const from = at('2030-03-01T05:00:00Z');
    const to = at('2030-04-01T04:00:00Z');
    expect(statementPlan(from, to)).toEqual({
      openingDay: '2030-03-01',
      openingPart: { from: at('2030-03-01T00:00:00Z'), to: from },
      days: { from: '2030-03-02', to: '2030-04-01' },
      parts: [
        { from, to: at('2030-03-02T00:00:00Z') },
        { from: at('2030-04-01T00:00:00Z'), to },
      ],
    });
  });

  it('a period inside one UTC day, or across one midnight, reads only movements', () => {
    const from = at('2030-03-01T05:00:00Z');
    expect(statementPlan(from, at('2030-03-01T09:00:00Z')).days).toBeNull();
    expect(statementPlan(from, at('2030-03-02T09:00:00Z'))).toMatchObject({
      days: null,
      parts: [{ from, to: at('2030-03-02T09:00:00Z') }],
    });
  });
});
