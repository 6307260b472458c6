import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithRouter } from '../../../test/render.tsx';
import { SwapForm } from './swap-form.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const QUOTE = '/api/external/transactions/trade_quote/';
const CREATE = '/api/external/transactions/';
const BALANCES = '/api/external/vaults/v1/balances/';

const vaults = [{ id: 'v1', vaultName: 'Treasury' }];
const assets = [
  { symbol: 'USDC', blockChain: 'ETHEREUM' },
  { symbol: 'ETH', blockChain: 'ETHEREUM' },
];

/** Three providers' answers, in no particular order, each valid until `until`. */
function answer(until: string) {
  const q = (quoteId: string, sourceName: string, to: string, minimum: string) => ({
    quoteId,
    sourceName,
    handler: 'sandbox',
    quoteResponseDict: {},
    finalToAmount: to,
    minimumToAmount: minimum,
    unitToAssetAmount: '0.000333',
    fees: { amount: '1.25', asset: 'USDC' },
    quotesValidTill: until,
    estCompletionTimeInSec: 120,
  });
  return {
    tradeRequestData: { fromAsset: 'USDC', fromAmount: '125.5', toAsset: 'ETH' },
    tradeResponseDataList: [
      q('q_mid', 'Meridian Pay', '0.0415', '0.0410'),
      q('q_best', 'Northwind Ramp', '0.0417', '0.0412'),
      q('q_low', 'Harbor FX', '0.0409', '0.0404'),
    ],
  };
}

/** `until` is a time, or one worked out as the quote is answered (so a busy machine's delay before it is not counted). */
async function quoteSwap(until: string | (() => string)) {
  const creates: Array<Record<string, unknown>> = [];
  const queries: URL[] = [];
  // What approvers will see: answered when the test says (here it cannot be worked out).
  let answerPreview: () => void = () => {};
  const preview = new Promise<Response>(
    (resolve) =>
      (answerPreview = () => resolve(json({ message: 'not now', code: 'UNAVAILABLE' }, 503))),
  );
  installFakeApi({
    '/api/console/approval_cards/preview/': () => preview,
    [BALANCES]: () => json({ USDC: { ETHEREUM: '1000' }, ETH: { ETHEREUM: '2' } }),
    [QUOTE]: (url) => {
      queries.push(url);
      return json(answer(typeof until === 'string' ? until : until()));
    },
    [CREATE]: async (_url, init) => {
      creates.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return json({ id: 'tx_swap', status: 'PENDING', category: 'SWAP' });
    },
  });
  const user = userEvent.setup();
  const { router } = renderWithRouter(<SwapForm vaults={vaults} assets={assets} />);
  const form = await screen.findByRole('form', { name: /^Swap/ });
  await user.selectOptions(within(form).getByLabelText('Vault'), 'v1');
  await waitFor(() =>
    expect(within(form).getByLabelText(/^Sell/)).toHaveTextContent('USDC on Ethereum'),
  );
  await user.selectOptions(within(form).getByLabelText(/^Sell/), 'USDC|ETHEREUM');
  await user.selectOptions(within(form).getByLabelText('Into'), 'ETH');
  await user.type(within(form).getByLabelText('Amount sold (USDC)'), '125.5');
  await user.click(within(form).getByRole('button', { name: 'Get quotes' }));
  await screen.findByRole('group', { name: '3 quotes, best first' });
  return { user, router, creates, queries, answerPreview };
}

describe('SwapForm', () => {
  it('shows the quotes best first, each with its minimum after slippage, and sends the chosen one once', async () => {
    // Valid for 45 s from the answer: the countdown read next is the quote's, not the test's set-up.
    const soon = () => new Date(Date.now() + 45_000).toISOString();
    const { user, router, creates, queries, answerPreview } = await quoteSwap(soon);
    expect(Object.fromEntries(queries[0]?.searchParams ?? [])).toEqual({
      vaultId: 'v1',
      fromAsset: 'USDC',
      toAsset: 'ETH',
      fromAmount: '125.5',
      blockChain: 'ETHEREUM',
      toBlockchain: 'ETHEREUM',
      slippage: '0.5',
    });
    const cards = screen.getAllByTestId('trade-quote');
    expect(cards.map((c) => within(c).getByTestId('trade-quote-arrives').textContent)).toEqual([
      '0.0417 ETH',
      '0.0415 ETH',
      '0.0409 ETH',
    ]);
    expect(cards[0]).toHaveTextContent('Best');
    expect(cards[0]).toHaveTextContent('0.0412 ETH after slippage');
    expect(cards[0]).toHaveTextContent(/Expires in (4[0-5]) s/);

    await user.click(screen.getByRole('button', { name: 'Review the chosen quote' }));
    const send = screen.getByRole('button', { name: 'Send swap' });
    // Held while what approvers will see is worked out; let go once it is known (here, that it
    // cannot be: the server judges the swap when it is sent).
    expect(send).toBeDisabled();
    answerPreview();
    await waitFor(() => expect(send).toBeEnabled());
    act(() => {
      send.click();
      send.click();
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions/tx_swap'));
    expect(creates).toHaveLength(1);
    expect(creates[0]).toMatchObject({
      category: 'SWAP',
      vaultId: 'v1',
      tradeResponseData: { quoteId: 'q_best' },
      tradeRequestData: { fromAmount: '125.5' },
    });
    expect(creates[0]?.externalId).toMatch(/^console-/);
  });

  it('never sends an expired quote: it asks for a new one', async () => {
    const gone = new Date(Date.now() - 1_000).toISOString();
    const { user, creates, queries, answerPreview } = await quoteSwap(gone);
    answerPreview();
    expect(screen.getAllByTestId('trade-quote-expiry')[0]).toHaveTextContent('Expired');
    await user.click(screen.getByRole('button', { name: 'Review the chosen quote' }));
    const send = screen.getByRole('button', { name: 'Send swap' });
    await waitFor(() => expect(send).toBeEnabled());
    await user.click(send);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /This quote has expired.*Nothing was sent.*Get a new quote/,
    );
    expect(creates).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Get new quotes' }));
    await waitFor(() => expect(queries).toHaveLength(2));
  });
});
