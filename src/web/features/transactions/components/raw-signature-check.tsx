import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { sameAddress } from '#contract/addresses.ts';
import { chainInfo, chainLabel } from '#contract/chains.ts';
import type { Transaction } from '#contract/transaction.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';

/**
 * A raw signing's signature and who made it: the console recovers the signer
 * itself (`ecrecover` of the hash signed, contract/raw-signature.ts) and sets
 * it against the vault's wallet on the chain, rather than trusting the
 * custody API to say its own signature is right. On Solana nothing is
 * recovered: the signature is verified against the wallet's address, its
 * ed25519 public key. The curves' code loads only when a signature is shown.
 */
export function RawSignatureRows({
  transaction: tx,
  messageHex,
  Row,
}: {
  transaction: Transaction;
  messageHex: string;
  Row: (props: { term: string; children: ReactNode }) => ReactNode;
}) {
  const signature = tx.txnSignature ?? '';
  const vaults = useQuery(referenceQueries.vaults());
  const wallet = vaults.data?.results
    .find((v) => v.id === tx.vaultId)
    ?.wallets?.find((w) => w.blockchain === tx.blockChain)?.address;
  const props = { messageHex, signature, wallet, chain: chainLabel(tx.blockChain), Row };
  return chainInfo(tx.blockChain)?.kind === 'SOLANA' ? (
    <SolanaSignatureRows {...props} />
  ) : (
    <EvmSignatureRows {...props} />
  );
}

interface SignatureRowsProps {
  messageHex: string;
  signature: string;
  wallet: string | undefined;
  chain: string;
  Row: (props: { term: string; children: ReactNode }) => ReactNode;
}

function EvmSignatureRows({ messageHex, signature, wallet, chain, Row }: SignatureRowsProps) {
  const check = useQuery({
    queryKey: ['raw-signature-check', messageHex, signature],
    queryFn: async () => {
      const { rawSigningDigest, recoverSigner } = await import('#contract/raw-signature.ts');
      const digest = rawSigningDigest(messageHex);
      return { digest, signer: recoverSigner(digest, signature) };
    },
    staleTime: Infinity,
  });
  const signer = check.data?.signer;
  return (
    <>
      <Row term="Signature">
        <Mono>{signature}</Mono>
      </Row>
      <Row term="Signed by">
        {check.isPending ? (
          <span className="text-slate-700">Checking the signature…</span>
        ) : !signer ? (
          <Warning>The signature recovers to no address: it is not a valid signature.</Warning>
        ) : wallet && sameAddress(signer, wallet) ? (
          <span className="block">
            <span className="block font-medium text-green-800">
              <span aria-hidden="true">✓ </span>
              Signed by the vault’s {chain} wallet
            </span>
            <Mono>{signer}</Mono>
          </span>
        ) : (
          <>
            <Warning>
              The signature does not recover to the vault’s {chain} wallet
              {wallet ? ` (${wallet})` : ''}: do not relay it.
            </Warning>
            <Mono>{signer}</Mono>
          </>
        )}
        {check.data ? (
          <span className="block text-xs text-slate-700">
            Recovered here from the hash signed, 0x{check.data.digest}
          </span>
        ) : null}
      </Row>
    </>
  );
}

function SolanaSignatureRows({ messageHex, signature, wallet, chain, Row }: SignatureRowsProps) {
  const check = useQuery({
    queryKey: ['raw-signature-check', 'ed25519', messageHex, signature, wallet],
    queryFn: async () => {
      const { verifySolanaSignature } = await import('#contract/raw-signature.ts');
      return { valid: wallet ? verifySolanaSignature(messageHex, signature, wallet) : false };
    },
    enabled: wallet !== undefined,
    staleTime: Infinity,
  });
  return (
    <>
      <Row term="Signature">
        <Mono>{signature}</Mono>
      </Row>
      <Row term="Signed by">
        {check.isPending ? (
          <span className="text-slate-700">Checking the signature…</span>
        ) : check.data?.valid && wallet ? (
          <span className="block">
            <span className="block font-medium text-green-800">
              <span aria-hidden="true">✓ </span>
              Signed by the vault’s {chain} wallet
            </span>
            <Mono>{wallet}</Mono>
          </span>
        ) : (
          <Warning>
            The signature does not verify against the vault’s {chain} wallet
            {wallet ? ` (${wallet})` : ''}: do not relay it.
          </Warning>
        )}
        <span className="block text-xs text-slate-700">
          Verified here over the message’s bytes with the wallet’s ed25519 key
        </span>
      </Row>
    </>
  );
}

function Mono({ children }: { children: ReactNode }) {
  return <span className="block font-mono text-xs break-all">{children}</span>;
}

function Warning({ children }: { children: ReactNode }) {
  return (
    <span
      role="note"
      className="mb-1 block rounded border border-amber-300 bg-amber-50 px-2 py-1 text-sm text-amber-900"
    >
      <span aria-hidden="true">⚠ </span>
      {children}
    </span>
  );
}
