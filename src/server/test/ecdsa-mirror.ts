/**
 * ECDSA's other valid signature: for a P-256 signature (r, s) of a message,
 * (r, n − s) verifies too. OpenSSL (Node's crypto, Python's `cryptography`)
 * and AWS KMS sign with either half at random, so an API client sends a
 * "high-S" signature (s > n/2) about half the time. Tests use this to make
 * the twin of a signature, whichever half it is in.
 */

/** The order of P-256's base point. */
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

export function isHighS(der: Uint8Array): boolean {
  return readDer(der).s > N / 2n;
}

/** The same signature with s replaced by n − s, DER-encoded. */
export function mirroredSignature(der: Uint8Array): Buffer {
  const { r, s } = readDer(der);
  return writeDer(r, N - s);
}

function readDer(der: Uint8Array): { r: bigint; s: bigint } {
  const bytes = Buffer.from(der);
  const rLength = bytes[3] ?? 0;
  const sAt = 4 + rLength;
  const sLength = bytes[sAt + 1] ?? 0;
  const int = (from: number, length: number) =>
    BigInt(`0x${bytes.subarray(from, from + length).toString('hex') || '0'}`);
  return { r: int(4, rLength), s: int(sAt + 2, sLength) };
}

function writeDer(r: bigint, s: bigint): Buffer {
  const integer = (value: bigint) => {
    let hex = value.toString(16);
    if (hex.length % 2) hex = `0${hex}`;
    // A leading 1 bit would read as negative: DER adds a zero byte.
    const body = Buffer.from(/^[89a-f]/.test(hex) ? `00${hex}` : hex, 'hex');
    return Buffer.concat([Buffer.from([0x02, body.length]), body]);
  };
  const content = Buffer.concat([integer(r), integer(s)]);
  return Buffer.concat([Buffer.from([0x30, content.length]), content]);
}
