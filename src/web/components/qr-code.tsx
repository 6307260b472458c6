import { encode } from 'uqr';

/**
 * A QR code drawn as one SVG path, for an app to scan: an authenticator's
 * enrolment (loaded with React.lazy, so the encoder stays out of the sign-in
 * page's script) and a vault's deposit address. The same text is always
 * shown beside it.
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  const { data } = encode(value, { ecc: 'M', border: 2 });
  const size = data.length;
  // Each run of dark modules in a row is one rectangle: a fifth of the path of one per module.
  let path = '';
  data.forEach((row, y) => {
    for (let x = 0; x < size; x += 1) {
      if (!row[x]) continue;
      const start = x;
      while (row[x + 1]) x += 1;
      const run = x - start + 1;
      path += `M${start} ${y}h${run}v1h-${run}z`;
    }
  });
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className="size-48 rounded-md border border-slate-300 bg-white text-slate-950"
    >
      <path d={path} fill="currentColor" />
    </svg>
  );
}
