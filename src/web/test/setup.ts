import { configure } from '@testing-library/react';

// findBy…/waitFor give up after 1 s by default. On a busy two-core machine a
// page's first fetch through the fake API can take longer without anything
// being wrong; a missing element still fails, only later.
configure({ asyncUtilTimeout: 10_000 });
