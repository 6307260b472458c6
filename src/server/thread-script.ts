/**
 * A worker thread's entry script, named relative to the module `from` that
 * starts it: compiled (dist/node), the .js beside it; under tsx (dev, tests,
 * the CLI) the .ts loaded through tsx, which a worker thread does not inherit.
 */
export function threadScript(
  entry: string,
  from: string,
): { script: string | URL; eval: boolean; file: string } {
  if (from.endsWith('.js')) {
    const url = new URL(`${entry}.js`, from);
    return { script: url, eval: false, file: url.href };
  }
  const file = new URL(`${entry}.ts`, from).href;
  // Under tsx only (a dev dependency): the compiled server takes the branch above.
  const loader = 'tsx/esm/api';
  return {
    script: `import(${JSON.stringify(loader)}).then(({ tsImport }) => tsImport(${JSON.stringify(file)}, ${JSON.stringify(from)}));`,
    eval: true,
    file,
  };
}
