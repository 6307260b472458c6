/**
 * The `logo` of each supported chain (the SDKs' ChainData requires one): a
 * small SVG badge, the chain's native ticker on its colour, as a data URL.
 * The sandbox serves no third-party images, so a client can show a logo
 * offline and no request leaves for someone else's server.
 */

const COLOURS: Readonly<Record<string, string>> = {
  ETHEREUM: '#3c4f9a',
  POLYGON: '#6c3cc4',
  BASE: '#0046d9',
  BITCOIN: '#b35c00',
  SOLANA: '#6b3fa0',
  TRON: '#c4001f',
  ICP: '#1a6f9a',
};
const FALLBACK = '#4b5563';

export function chainLogo(chain: string, ticker: string): string {
  const colour = COLOURS[chain] ?? FALLBACK;
  const text = ticker.replace(/[^A-Z0-9]/gi, '').slice(0, 4);
  const size = text.length > 3 ? 9 : 11;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">` +
    `<circle cx="16" cy="16" r="16" fill="${colour}"/>` +
    `<text x="16" y="20" text-anchor="middle" font-family="sans-serif" font-size="${size}" font-weight="700" fill="#fff">${text}</text>` +
    `</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
