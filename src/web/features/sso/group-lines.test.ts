import { describe, expect, it } from 'vitest';
import { groupsToLines, linesToGroups } from './group-lines.ts';

describe('group mapping lines', () => {
  it('reads a role for every sub-organization, or for some', () => {
    expect(linesToGroups('treasury = approver\n\n ops = viewer: sub-a, sub-b ')).toEqual({
      ok: true,
      groups: [
        { groupName: 'treasury', role: 'approver', subOrgIds: null },
        { groupName: 'ops', role: 'viewer', subOrgIds: ['sub-a', 'sub-b'] },
      ],
    });
  });

  it('names the line and the rule it breaks', () => {
    expect(linesToGroups('a = approver\nb = owner')).toEqual({
      ok: false,
      message: expect.stringContaining('line 2 must read "group = role"') as string,
    });
  });

  it('writes what it reads', () => {
    const text = 'treasury = approver\nops = viewer: sub-a, sub-b';
    const parsed = linesToGroups(text);
    expect(parsed.ok && groupsToLines(parsed.groups)).toBe(text);
  });
});
