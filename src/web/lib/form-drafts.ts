/**
 * Who the tab's form drafts (use-persistent-form-draft.ts) belong to, and
 * forgetting them all. Apart from the hook because every page's session
 * handling calls these, while only the forms use the hook: the first load
 * carries these few lines, not the hook.
 */

/** Every draft is stored under this prefix in sessionStorage. */
export const DRAFT_PREFIX = 'form-draft:';

/** Signing out forgets every draft: the next person at this keyboard must not see them. */
export function clearAllFormDrafts(): void {
  try {
    const storage = globalThis.sessionStorage;
    if (!storage) return;
    const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i));
    for (const key of keys) if (key?.startsWith(DRAFT_PREFIX)) storage.removeItem(key);
  } catch {
    // Storage unavailable: there are no drafts to forget.
  }
}

const DRAFT_OWNER_KEY = 'form-draft-owner';

/**
 * Drafts belong to the member who typed them. Called whenever a session is
 * known: a different member signing in at this tab (after the first one's
 * session expired) starts with no drafts rather than someone else's.
 */
export function claimFormDrafts(memberId: string): void {
  try {
    const storage = globalThis.sessionStorage;
    if (!storage) return;
    const owner = storage.getItem(DRAFT_OWNER_KEY);
    if (owner !== null && owner !== memberId) clearAllFormDrafts();
    storage.setItem(DRAFT_OWNER_KEY, memberId);
  } catch {
    // Storage unavailable: there are no drafts to hand over.
  }
}
