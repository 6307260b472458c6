/** A contact's asset list in words: every asset of its chain when it names none. */
export const assetsText = (list: readonly string[] | null | undefined) =>
  list && list.length > 0 ? list.join(', ') : 'Any asset of its chain';
