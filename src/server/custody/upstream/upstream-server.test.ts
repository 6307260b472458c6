import { Writable } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiUserKeyPair } from '../../protocol/ecdsa-keys.ts';
import { loadConfig } from '../../env.ts';
import { createLogger } from '../../logger.ts';
import { startServer } from '../../server.ts';

// The whole server in upstream mode on a fresh PGlite directory, its custody
// API unreachable: what it creates, what it offers, and what it logs.
let dataDir: string;
const { privateKeyHex } = generateApiUserKeyPair();
const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString('utf8'));
    done();
  },
});

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'custody-upstream-server-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('a console server in upstream mode', () => {
  it('keeps only its own schema, offers no demo members, reports why it is not ready, and never logs the key', async () => {
    const config = loadConfig({
      PORT: '0',
      DATA_DIR: dataDir,
      STATIC_DIR: '/nonexistent-spa',
      CUSTODY_BACKEND: 'upstream',
      // Nothing listens on port 1: every call is refused.
      CUSTODY_BASE_URL: 'http://127.0.0.1:1',
      CUSTODY_API_KEY: 'console-api-key',
      CUSTODY_PRIVATE_KEY: privateKeyHex,
      CUSTODY_TIMEOUT_MS: '3000',
    });
    const server = await startServer(config, createLogger('trace', sink));
    try {
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({
        status: 'unavailable',
        backend: 'upstream',
        reason: expect.stringContaining('127.0.0.1:1 could not be reached'),
      });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${server.url}/auth/demo-accounts`)).status).toBe(404);
      const signIn = await fetch(`${server.url}/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: server.url },
        body: JSON.stringify({ email: 'admin@sandbox.local', password: 'sandbox-admin-pass' }),
      });
      expect(signIn.status).toBe(401);
    } finally {
      await server.close();
    }

    const db = new PGlite(dataDir);
    try {
      const { rows } = await db.query<{ schema_name: string }>(
        'SELECT schema_name FROM information_schema.schemata',
      );
      const schemas = rows.map((r) => r.schema_name);
      expect(schemas).toContain('console');
      expect(schemas).not.toContain('sandbox');
    } finally {
      await db.close();
    }

    const logged = lines.join('');
    expect(logged).toContain('custody API did not answer');
    expect(logged).not.toContain(privateKeyHex);
    expect(logged).not.toContain(privateKeyHex.slice(-40));
    expect(logged).not.toMatch(/Bearer /);
    // A cold PGlite migration on a busy machine outlasts the default minute.
  }, 180_000);
});
