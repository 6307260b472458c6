import { configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy…/waitFor give up after 1 s by default. On a busy two-core machine a
// page's first fetch through the fake API can take longer without anything
// being wrong; a missing element still fails, only later.
configure({ asyncUtilTimeout: 10_000 });

// Paging remembers the way back in session storage (lib/paging.ts): each test starts without it.
afterEach(() => sessionStorage.clear());
