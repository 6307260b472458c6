/**
 * One part of `npm run bench`. Sections run in the order bench/sections.ts
 * lists them; `--only a,b` picks some. A new measurement is a new section:
 * add a file exporting a BenchSection and list it there.
 */

export interface SectionOptions {
  /** --seconds: how long one load cell runs. */
  seconds: number;
  /** --requests: per-cell request budget of the in-process load generator. */
  requests: number;
  /** --rows: bulk rows for the storage section's deep-paging run. */
  rows: number;
  /** False with --no-build: reuse dist/ as it is. */
  build: boolean;
  progress(line: string): void;
}

export interface SectionResult {
  /** Printed after the run, under the section's name. */
  text: string;
  /** Written to .tmp/bench-latest.json under the section's name. */
  data: unknown;
}

export interface BenchSection {
  name: string;
  /** One line for --help. */
  about: string;
  run(options: SectionOptions): Promise<SectionResult>;
}
