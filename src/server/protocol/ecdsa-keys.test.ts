import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  KeyFormatError,
  generateApiUserKeyPair,
  isDerEcdsaSignature,
  parsePrivateKey,
  parsePublicKey,
  signApprovalMessage,
  signDataSignature,
  verifyApprovalSignature,
  verifyDataSignature,
  withoutDataSignature,
} from './ecdsa-keys.ts';
import { isHighS, mirroredSignature } from '../test/ecdsa-mirror.ts';

function pemsOf(pair: { privateKeyHex: string; publicKeyHex: string }) {
  const privateKey = createPrivateKey({
    key: Buffer.from(pair.privateKeyHex, 'hex'),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(privateKey);
  return {
    privatePkcs8: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    privateSec1: privateKey.export({ type: 'sec1', format: 'pem' }) as string,
    publicSpki: publicKey.export({ type: 'spki', format: 'pem' }) as string,
    pointUncompressed: publicKey.export({ format: 'jwk' }),
  };
}

describe('key formats', () => {
  it('generates PKCS#8 and SPKI DER hex for P-256', () => {
    const pair = generateApiUserKeyPair();
    expect(pair.privateKeyHex).toMatch(/^[0-9a-f]+$/);
    expect(pair.publicKeyHex).toMatch(
      /^3059301306072a8648ce3d020106082a8648ce3d030107034200[0-9a-f]{130}$/,
    );
    expect(parsePrivateKey(pair.privateKeyHex).asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
  });

  it('accepts hex DER, 0x hex, PEM and PEM with literal \\n for the same private key', () => {
    const pair = generateApiUserKeyPair();
    const pems = pemsOf(pair);
    const message = 'approve change request 42';
    for (const privateKey of [
      pair.privateKeyHex,
      `0x${pair.privateKeyHex.toUpperCase()}`,
      pems.privatePkcs8,
      pems.privatePkcs8.replace(/\n/g, '\\n'),
      pems.privateSec1,
    ]) {
      expect(
        verifyApprovalSignature(
          message,
          signApprovalMessage(message, privateKey),
          pair.publicKeyHex,
        ),
      ).toBe(true);
    }
  });

  it('accepts a public key as SPKI hex, PEM or a bare P-256 point', () => {
    const pair = generateApiUserKeyPair();
    const pems = pemsOf(pair);
    const { x, y } = pems.pointUncompressed as { x: string; y: string };
    const xHex = Buffer.from(x, 'base64url').toString('hex');
    const yBytes = Buffer.from(y, 'base64url');
    const uncompressed = `04${xHex}${yBytes.toString('hex')}`;
    const compressed = `${(yBytes.at(-1) ?? 0) % 2 === 0 ? '02' : '03'}${xHex}`;
    const signature = signApprovalMessage('m', pair.privateKeyHex);
    for (const publicKey of [pair.publicKeyHex, pems.publicSpki, uncompressed, compressed]) {
      expect(verifyApprovalSignature('m', signature, publicKey)).toBe(true);
    }
  });

  it('refuses keys that are not P-256 or not keys at all, naming the problem', () => {
    const k1 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
    const ed = generateKeyPairSync('ed25519');
    expect(() =>
      parsePrivateKey(k1.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string),
    ).toThrow(/P-256.*secp256k1/);
    expect(() => parsePublicKey(ed.publicKey)).toThrow(/P-256.*ed25519/);
    expect(() => parsePrivateKey('not a key')).toThrow(KeyFormatError);
    expect(() => parsePrivateKey('abcd')).toThrow(/PKCS#8/);
    expect(() => parsePublicKey('zz')).toThrow(KeyFormatError);
    const pair = generateApiUserKeyPair();
    expect(() => parsePrivateKey(parsePublicKey(pair.publicKeyHex))).toThrow(
      /expected a private key/,
    );
    expect(() => verifyApprovalSignature('m', '3006020101020101', 'garbage')).toThrow(
      KeyFormatError,
    );
  });
});

describe('approval signatures', () => {
  it('verifies a DER signature made directly with node:crypto', () => {
    const pair = generateApiUserKeyPair();
    const key = createPrivateKey({
      key: Buffer.from(pair.privateKeyHex, 'hex'),
      format: 'der',
      type: 'pkcs8',
    });
    const message = '{"approvalId":"ap-1","entityId":"ba-1"}';
    const signatureHex = sign('sha256', Buffer.from(message), { key, dsaEncoding: 'der' }).toString(
      'hex',
    );
    expect(verifyApprovalSignature(message, signatureHex, pair.publicKeyHex)).toBe(true);
  });

  it('produces signatures node:crypto verifies, and refuses altered ones', () => {
    const pair = generateApiUserKeyPair();
    const other = generateApiUserKeyPair();
    const signatureHex = signApprovalMessage('message', pair.privateKeyHex);
    const publicKey = parsePublicKey(pair.publicKeyHex);
    expect(
      verify(
        'sha256',
        Buffer.from('message'),
        { key: publicKey, dsaEncoding: 'der' },
        Buffer.from(signatureHex, 'hex'),
      ),
    ).toBe(true);
    expect(verifyApprovalSignature('message!', signatureHex, pair.publicKeyHex)).toBe(false);
    expect(verifyApprovalSignature('message', signatureHex, other.publicKeyHex)).toBe(false);
    expect(verifyApprovalSignature('message', 'not hex', pair.publicKeyHex)).toBe(false);
    expect(verifyApprovalSignature('message', '', pair.publicKeyHex)).toBe(false);
  });

  it('verifies both halves of a signature: the SDKs (OpenSSL, AWS KMS) emit high-S about half the time', () => {
    const pair = generateApiUserKeyPair();
    const signature = Buffer.from(signApprovalMessage('message', pair.privateKeyHex), 'hex');
    const twin = mirroredSignature(signature);
    expect(isHighS(twin)).toBe(!isHighS(signature));
    for (const halves of [signature, twin])
      expect(verifyApprovalSignature('message', halves.toString('hex'), pair.publicKeyHex)).toBe(
        true,
      );
  });

  it('refuses a raw r‖s signature: the API signs in DER', () => {
    const pair = generateApiUserKeyPair();
    const key = parsePrivateKey(pair.privateKeyHex);
    const raw = sign('sha256', Buffer.from('m'), { key, dsaEncoding: 'ieee-p1363' });
    expect(raw).toHaveLength(64);
    expect(isDerEcdsaSignature(raw)).toBe(false);
    expect(verifyApprovalSignature('m', raw.toString('hex'), pair.publicKeyHex)).toBe(false);
  });
});

describe('dataSignatureHex (Python SDK)', () => {
  const body = { amount: '0.5', asset: 'ETH', memo: 'payé', source: { id: 'v1', type: 'VAULT' } };

  it('signs the canonical JSON of the body without the field', () => {
    const pair = generateApiUserKeyPair();
    const signed = { ...body, dataSignatureHex: signDataSignature(body, pair.privateKeyHex) };
    const canonical =
      '{"amount":"0.5","asset":"ETH","memo":"payé","source":{"id":"v1","type":"VAULT"}}';
    const publicKey = parsePublicKey(pair.publicKeyHex);
    const signature = Buffer.from(signed.dataSignatureHex, 'hex');
    expect(
      verify('sha256', Buffer.from(canonical), { key: publicKey, dsaEncoding: 'der' }, signature),
    ).toBe(true);
    expect(verifyDataSignature(signed, pair.publicKeyHex)).toBe(true);
    // Re-signing a body that already carries the field gives a signature over the same text.
    expect(
      verifyDataSignature(
        { ...signed, dataSignatureHex: signDataSignature(signed, pair.privateKeyHex) },
        pair.publicKeyHex,
      ),
    ).toBe(true);
  });

  it('is false for a changed body, a missing field or a non-object', () => {
    const pair = generateApiUserKeyPair();
    const signed = { ...body, dataSignatureHex: signDataSignature(body, pair.privateKeyHex) };
    expect(verifyDataSignature({ ...signed, amount: '5' }, pair.publicKeyHex)).toBe(false);
    expect(verifyDataSignature(body, pair.publicKeyHex)).toBe(false);
    expect(verifyDataSignature({ ...body, dataSignatureHex: 42 }, pair.publicKeyHex)).toBe(false);
    expect(verifyDataSignature([signed], pair.publicKeyHex)).toBe(false);
  });

  it('removes only a top-level field', () => {
    const nested = { a: { dataSignatureHex: 'x' }, dataSignatureHex: 'y' };
    expect(withoutDataSignature(nested)).toEqual({ a: { dataSignatureHex: 'x' } });
    expect(withoutDataSignature(body)).toBe(body);
    expect(withoutDataSignature(['dataSignatureHex'])).toEqual(['dataSignatureHex']);
  });
});
