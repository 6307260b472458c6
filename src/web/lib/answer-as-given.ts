import type * as z from 'zod/mini';

/**
 * Whether checking a value against `schema` can only accept or refuse it,
 * never change it: no transform, pipe, default, catch, coercion or
 * normalizing check (`z.trim()`, `z.toLowerCase()`: zod's overwrite checks)
 * anywhere inside, only plain shapes (objects, arrays, unions, optional and
 * nullable values, records, literals and scalars). An object's check also
 * drops keys it does not declare; a value taken unchecked keeps them.
 *
 * The server's render takes its own in-process answers unchecked when their
 * schema is plain (entry-server.tsx): the server built each one as that
 * schema's output, so checking it again in the same process gives the same
 * value at the cost of a walk over every row. Any other kind, or one not
 * known here, is checked as usual: a transform's output is what the page
 * reads, and an unchecked answer would not have gone through it.
 *
 * The answer is kept per schema (schemas are module constants).
 */
export function parsesAsGiven(schema: z.ZodMiniType): boolean {
  let known = verdicts.get(schema);
  if (known === undefined) {
    known = plain(schema as unknown as Inspectable, new Set());
    verdicts.set(schema, known);
  }
  return known;
}

const verdicts = new WeakMap<object, boolean>();

/** What of zod's schema definition (`_zod.def`, its documented introspection) is read here. */
interface Inspectable {
  _zod?: { def?: Definition };
}

interface Definition {
  type: string;
  coerce?: boolean;
  checks?: ReadonlyArray<{ _zod?: { def?: { check?: string } } }>;
  shape?: Record<string, Inspectable>;
  catchall?: Inspectable;
  element?: Inspectable;
  innerType?: Inspectable;
  options?: readonly Inspectable[];
  items?: readonly Inspectable[];
  rest?: Inspectable | null;
  keyType?: Inspectable;
  valueType?: Inspectable;
  left?: Inspectable;
  right?: Inspectable;
  getter?: () => Inspectable;
}

// Kinds whose check accepts or refuses a value as it is.
const SCALARS = new Set([
  'string',
  'number',
  'int',
  'boolean',
  'null',
  'undefined',
  'literal',
  'enum',
  'template_literal',
  'any',
  'unknown',
]);

function plain(schema: Inspectable, walking: Set<Inspectable>): boolean {
  const def = schema._zod?.def;
  if (!def) return false;
  // A schema met again while walking it (a recursive, lazy one) is judged by its first visit.
  if (walking.has(schema)) return true;
  walking.add(schema);
  // eslint-disable-next-line no-restricted-syntax -- reads whether a schema coerces; converts nothing
  if (def.coerce) return false;
  if (def.checks?.some((check) => check._zod?.def?.check === 'overwrite')) return false;
  const all = (parts: ReadonlyArray<Inspectable | null | undefined>) =>
    parts.every((part) => part == null || plain(part, walking));
  switch (def.type) {
    case 'object':
      return all([...Object.values(def.shape ?? {}), def.catchall]);
    case 'array':
      return all([def.element]);
    case 'optional':
    case 'nullable':
      return all([def.innerType]);
    case 'union':
      return all(def.options ?? []);
    case 'tuple':
      return all([...(def.items ?? []), def.rest]);
    case 'record':
      return all([def.keyType, def.valueType]);
    case 'intersection':
      return all([def.left, def.right]);
    case 'lazy':
      return def.getter !== undefined && all([def.getter()]);
    default:
      return SCALARS.has(def.type);
  }
}
