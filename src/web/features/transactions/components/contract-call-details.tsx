import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { sameAddress } from '#contract/addresses.ts';
import { readCallData, type DecodedCall } from '#contract/call-data.ts';
import { formatAmount } from '#contract/decimal-format.ts';
import type { Transaction } from '#contract/transaction.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { RawSignatureRows } from './raw-signature-check.tsx';

/**
 * What a contract call does, for the member deciding it: the contract it
 * calls (named when it is an approved contact or one of our vaults), the
 * function and its arguments when the call data is a well-known one
 * (contract/call-data.ts), and otherwise the raw data with a warning that it
 * was not decoded. Rendered as rows of the caller's `<dl>`.
 */
export function ContractCallRows({
  transaction: tx,
  Row,
}: {
  transaction: Transaction;
  Row: (props: { term: string; children: ReactNode }) => ReactNode;
}) {
  const data = tx.data;
  const known = useKnownAddresses(tx.blockChain);
  if (!data || Object.keys(data).length === 0)
    return (
      <Row term="Call">
        <Warning>
          The custody API did not return this call&apos;s data: what it calls cannot be checked
          here. Ask whoever prepared it before approving.
        </Warning>
      </Row>
    );

  const text = (key: string) => (typeof data[key] === 'string' ? data[key] : undefined);
  const callData = text('callData');
  const target = text('toAddress') ?? text('canisterId');
  return (
    <>
      <Row term="Calls contract">
        {target ? (
          <AddressWithName address={target} name={known(target)} />
        ) : (
          <span className="text-slate-700">No contract address given</span>
        )}
      </Row>
      {callData !== undefined ? <EvmCall callData={callData} known={known} Row={Row} /> : null}
      {text('method') !== undefined ? (
        <Row term="Method">
          <Mono>{text('method')}</Mono>
        </Row>
      ) : null}
      {text('arg') !== undefined ? (
        <Row term="Argument (raw)">
          <Mono>{text('arg') || '(empty)'}</Mono>
        </Row>
      ) : null}
      {data['params'] !== undefined ? (
        <Row term="Parameters">
          <pre className="overflow-x-auto rounded bg-slate-100 p-2 font-mono text-xs">
            {JSON.stringify(data['params'], null, 2)}
          </pre>
        </Row>
      ) : null}
      {text('messageHex') !== undefined ? (
        <Row term="Message to sign">
          <Warning>
            A raw signature: the vault signs these bytes whatever they mean. Approve only if you
            know what they are.
          </Warning>
          <Mono>{text('messageHex')}</Mono>
        </Row>
      ) : null}
      {text('messageHex') !== undefined && tx.txnSignature ? (
        <RawSignatureRows transaction={tx} messageHex={text('messageHex') ?? ''} Row={Row} />
      ) : null}
    </>
  );
}

function EvmCall({
  callData,
  known,
  Row,
}: {
  callData: string;
  known: (address: string) => string | undefined;
  Row: (props: { term: string; children: ReactNode }) => ReactNode;
}) {
  const reading = readCallData(callData);
  if (reading.kind === 'raw')
    return (
      <Row term="Call data">
        <Warning>
          Not decoded: {reading.reason} Check the raw call data below with whoever prepared it.
        </Warning>
        <Mono>{callData}</Mono>
      </Row>
    );
  return (
    <>
      <Row term="Function">
        <Mono>{reading.call.signature}</Mono>
        <span className="block text-xs text-slate-700">
          Decoded from the call data ({describeFunction(reading.call)})
        </span>
      </Row>
      {reading.call.args.map((arg) => (
        <Row key={arg.name} term={`Argument ${arg.name}`}>
          {arg.type === 'address' ? (
            <AddressWithName address={arg.value} name={known(arg.value)} />
          ) : arg.type === 'uint256' ? (
            <>
              <span className="font-medium tabular-nums">{formatAmount(arg.value)}</span>
              <span className="block text-xs text-slate-700">
                in the token&apos;s smallest units (its decimals are not part of the call)
              </span>
            </>
          ) : (
            arg.value
          )}
        </Row>
      ))}
      {reading.call.unlimited ? (
        <Row term="Allowance">
          <Warning>
            Unlimited: the spender may take every token of this kind the vault holds, now and later,
            until the approval is revoked.
          </Warning>
        </Row>
      ) : null}
      <Row term="Call data">
        <details>
          <summary className="cursor-pointer text-sm text-slate-700">Raw hex</summary>
          <Mono>{callData}</Mono>
        </details>
      </Row>
    </>
  );
}

function describeFunction(call: DecodedCall): string {
  switch (call.name) {
    case 'transfer':
      return 'sends tokens from the vault';
    case 'transferFrom':
      return 'moves tokens between two addresses under an allowance';
    case 'approve':
    case 'increaseAllowance':
      return 'lets the spender take tokens from the vault';
    case 'decreaseAllowance':
      return 'lowers what the spender may take';
    default:
      return 'lets the operator move every token of the collection';
  }
}

/** Names an address the organization knows: an approved contact or one of its vaults. */
function useKnownAddresses(chain: string | undefined): (address: string) => string | undefined {
  const contacts = useQuery(referenceQueries.contacts());
  const vaults = useQuery(referenceQueries.vaults());
  return (address) => {
    const contact = contacts.data?.results.find(
      (c) =>
        c.address &&
        c.status === 'APPROVED' &&
        (!chain || c.blockChain === chain) &&
        sameAddress(c.address, address),
    );
    if (contact) return `${contact.name ?? 'Contact'} (approved contact)`;
    const vault = vaults.data?.results.find((v) =>
      v.wallets?.some((w) => w.address && sameAddress(w.address, address)),
    );
    return vault ? `${vault.vaultName ?? 'Vault'} (our vault)` : undefined;
  };
}

function AddressWithName({ address, name }: { address: string; name: string | undefined }) {
  return (
    <span className="block">
      <span className="block font-medium">
        {name ?? 'Not an approved contact or one of our vaults'}
      </span>
      <Mono>{address}</Mono>
    </span>
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
