/**
 * Where a person can look a transaction hash up, per chain (mainnet
 * explorers). The sandbox's hashes are simulated, so there they lead to
 * "not found"; against a real custody API they lead to the transaction.
 */
const EXPLORER_TX: Record<string, (hash: string) => string> = {
  ETHEREUM: (h) => `https://etherscan.io/tx/${h}`,
  POLYGON: (h) => `https://polygonscan.com/tx/${h}`,
  BASE: (h) => `https://basescan.org/tx/${h}`,
  BITCOIN: (h) => `https://mempool.space/tx/${h}`,
  SOLANA: (h) => `https://solscan.io/tx/${h}`,
  TRON: (h) => `https://tronscan.org/#/transaction/${h}`,
  ICP: (h) => `https://dashboard.internetcomputer.org/transaction/${h}`,
};

export function explorerTxUrl(chain: string | undefined, txHash: string): string | undefined {
  const build = chain ? EXPLORER_TX[chain] : undefined;
  return build ? build(encodeURIComponent(txHash)) : undefined;
}
