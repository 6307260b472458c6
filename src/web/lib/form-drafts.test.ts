// @vitest-environment jsdom
// sessionStorage is the browser's: the unit project runs in Node.
import { beforeEach, describe, expect, it } from 'vitest';
import { DRAFT_PREFIX, claimFormDrafts, clearAllFormDrafts } from './form-drafts.ts';

const draft = (key: string) => sessionStorage.getItem(`${DRAFT_PREFIX}${key}`);

beforeEach(() => sessionStorage.clear());

describe('form drafts', () => {
  it('forgets every draft, and nothing else, when the member signs out', () => {
    sessionStorage.setItem(`${DRAFT_PREFIX}/staff#create`, '{"note":"private"}');
    sessionStorage.setItem(`${DRAFT_PREFIX}/transactions/new#TRANSFER`, '{"memo":"x"}');
    sessionStorage.setItem('unrelated', 'kept');
    clearAllFormDrafts();
    expect(draft('/staff#create')).toBeNull();
    expect(draft('/transactions/new#TRANSFER')).toBeNull();
    expect(sessionStorage.getItem('unrelated')).toBe('kept');
  });

  it("keeps a member's drafts for that member only", () => {
    claimFormDrafts('s_ada');
    sessionStorage.setItem(`${DRAFT_PREFIX}/staff#create`, '{"note":"ada typed this"}');
    claimFormDrafts('s_ada');
    expect(draft('/staff#create')).toContain('ada typed this');
    claimFormDrafts('s_bob');
    expect(draft('/staff#create')).toBeNull();
    // Bob's own drafts are his from now on.
    sessionStorage.setItem(`${DRAFT_PREFIX}/staff#create`, '{"note":"bob"}');
    claimFormDrafts('s_bob');
    expect(draft('/staff#create')).toContain('bob');
  });
});
