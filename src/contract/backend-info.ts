import * as z from 'zod/mini';

/** GET /api/console/backend: which custody service the console acts on (the header's badge). */
export const BackendInfo = z.looseObject({
  kind: z.enum(['sandbox', 'upstream']),
  host: z.nullable(z.string()),
});
export type BackendInfo = z.infer<typeof BackendInfo>;
