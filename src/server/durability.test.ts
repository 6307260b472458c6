import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '#contract/paths.ts';
import { VaultListResponse } from '#contract/reference.ts';
import { freePort, healthy, signInAsDemo } from './test/served.ts';
import { createTestDatabaseConfig, type TestDatabaseConfig } from './test/test-database.ts';

// A kill -9 right after the server accepted transactions loses none of them:
// a create answers only once its database transaction has committed.
let storage: TestDatabaseConfig;
const children: ChildProcess[] = [];

beforeAll(async () => {
  storage = await createTestDatabaseConfig();
});
afterAll(async () => {
  for (const child of children) killHard(child);
  await storage.cleanup();
});

function killHard(child: ChildProcess) {
  // tsx runs the server in a child of its own: kill the whole process group.
  if (child.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

async function startServerProcess(): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: storage.dataDir,
      DATABASE_URL: storage.databaseUrl ?? '',
      LOG_LEVEL: 'silent',
      STATIC_DIR: '/nonexistent-spa',
    },
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`))),
  );
  const ready = healthy(base);
  await Promise.race([ready, exited]);
  return { base, child };
}

describe('durability', () => {
  it('a kill -9 just after creates loses no accepted transaction', async () => {
    const first = await startServerProcess();
    const auth = await signInAsDemo(first.base, 'initiator');
    const vaults = VaultListResponse.parse(
      await (
        await fetch(`${first.base}${paths.vaults()}?limit=100`, {
          headers: { cookie: auth.cookie },
        })
      ).json(),
    ).results.filter((v) => v.wallets?.some((w) => w.blockchain === 'ETHEREUM'));
    const [source, destination] = vaults;
    expect(source?.id && destination?.id).toBeTruthy();

    const run = `durable-${Date.now()}`;
    const accepted = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        const res = await fetch(`${first.base}${paths.transactions()}`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Origin: first.base,
            cookie: auth.cookie,
            'X-CSRF-Token': auth.csrf,
          },
          body: JSON.stringify({
            category: 'TRANSFER',
            source: { type: 'VAULT', id: source?.id },
            destination: { type: 'VAULT', id: destination?.id },
            amount: '0.001',
            asset: 'ETH',
            blockChain: 'ETHEREUM',
            externalId: `${run}-${i}`,
          }),
        });
        expect(res.status).toBe(200);
        return ((await res.json()) as { id: string }).id;
      }),
    );
    killHard(first.child);
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await startServerProcess();
    const again = await signInAsDemo(second.base, 'initiator');
    for (const [i, id] of accepted.entries()) {
      const res = await fetch(`${second.base}${paths.transaction(id)}`, {
        headers: { cookie: again.cookie },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id, externalId: `${run}-${i}` });
    }
    killHard(second.child);
  }, 180_000);
});
