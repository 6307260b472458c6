import { describe, expect } from 'vitest';
import { paths } from '#contract/paths.ts';
import { Transaction } from '#contract/transaction.ts';
import { engineTest } from '../../../test/engine-test.ts';
import { sdkCaller } from '../../../test/sdk-wire.ts';

// The JS SDK's createTransferTransaction sends `executeAt`: a transfer made with
// it waits for that time on the sandbox's clock, approvals collected before.
const it = engineTest.extend('sdk', { scope: 'file' }, ({ t }) => sdkCaller(t, 'scheduler'));

const HOUR = 60 * 60_000;

/** The JS SDK's createTransferTransaction body (unset fields left out, as JSON.stringify does). */
function jsTransfer(source: string, destination: string, executeAt: string, externalId: string) {
  return {
    source: { type: 'VAULT', id: source },
    destination: { type: 'CONTACT', id: destination },
    amount: '0.01',
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    category: 'TRANSFER',
    externalId,
    executeAt,
  };
}

describe('a transfer scheduled with executeAt', () => {
  it('is approved before its time, not signed until then, and runs after it', async ({
    t,
    f,
    sdk,
  }) => {
    const at = new Date(t.clock.now().getTime() + 2 * HOUR).toISOString();
    const created = await sdk.call(
      'js',
      'POST',
      paths.transactions(),
      jsTransfer(f.treasury.id, f.contacts.eth.id, at, 'scheduled-1'),
    );
    expect(created.status, created.text).toBe(200);
    const id = String(created.body['id']);
    expect(created.body).toMatchObject({ status: 'PENDING', executeAt: at });
    await sdk.approve('js', id);
    await t.run(HOUR);
    await t.run(30 * 60_000);
    expect(await t.status(id)).toBe('APPROVED');
    for (let i = 0; i < 10 && (await t.status(id)) !== 'COMPLETED'; i += 1) await t.run(HOUR);
    const done = Transaction.parse((await t.get(paths.transaction(id))).body);
    expect(done.status).toBe('COMPLETED');
    const signed = done.statusHistory?.find((h) => h.status === 'SIGNED');
    expect(new Date(signed?.at ?? 0).getTime()).toBeGreaterThanOrEqual(new Date(at).getTime());
  });

  it('refuses a time in the past, an unreadable one and one too far ahead, naming executeAt', async ({
    t,
    f,
    sdk,
  }) => {
    const now = t.clock.now().getTime();
    const cases: Array<[string, string]> = [
      [new Date(now - 60_000).toISOString(), 'EXECUTE_AT_OUT_OF_RANGE'],
      ['next tuesday', 'VALIDATION_ERROR'],
      [new Date(now + 31 * 24 * HOUR).toISOString(), 'EXECUTE_AT_OUT_OF_RANGE'],
    ];
    for (const [executeAt, code] of cases) {
      const res = await sdk.call(
        'js',
        'POST',
        paths.transactions(),
        jsTransfer(f.treasury.id, f.contacts.eth.id, executeAt, `refused-${code}-${executeAt}`),
      );
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ code });
      const fields = (res.body['fields'] as Array<{ field: string }> | undefined) ?? [];
      expect(fields.map((f) => f.field)).toContain('executeAt');
    }
  });
});
