import { clsx, type ClassValue } from 'clsx';

/**
 * Joins class names (conditions, arrays, falsy parts dropped). It does not
 * merge conflicting Tailwind classes: a primitive's cva variants say what a
 * caller may change, and a class passed in adds to the primitive's, never
 * contradicts one it sets (ARCHITECTURE.md, "First load": the merge library
 * was 8 KB gzip of every first load).
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
