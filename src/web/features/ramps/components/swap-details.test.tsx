import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transaction } from '#contract/transaction-record.ts';
import { SwapDetails } from './swap-details.tsx';

afterEach(cleanup);

const swap: Transaction = {
  id: 'tx_swap',
  status: 'PENDING',
  category: 'SWAP',
  subCategory: 'MARKET_TRADE',
  asset: 'USDC',
  amount: '300',
  blockChain: 'ETHEREUM',
  toAsset: 'ETH',
  toBlockChain: 'ETHEREUM',
  finalToAmount: '0.09986904',
  fees: { amount: '1.5', asset: 'USDC' },
  tradeResponseData: {
    quoteId: 'q1',
    sourceName: 'Northwind Ramp',
    finalToAmount: '0.09986904',
    minimumToAmount: '0.09887034',
    unitToAssetAmount: '0.000332896801',
    quotesValidTill: '2030-01-01T12:01:00.000Z',
    fees: { amount: '1.5', asset: 'USDC' },
  },
};

describe('a swap on its transaction page', () => {
  it('shows both legs (what is sold with its fee, what arrives) and the quote it executes', () => {
    render(<SwapDetails transaction={swap} />);
    const panel = screen.getByRole('region', { name: 'Swap' });
    expect(within(panel).getByTestId('swap-sells')).toHaveTextContent('300 USDC');
    expect(within(panel).getByTestId('swap-fee')).toHaveTextContent('1.5 USDC');
    expect(within(panel).getByTestId('swap-arrives')).toHaveTextContent('0.09986904 ETH');
    expect(panel).toHaveTextContent('Northwind Ramp');
    expect(panel).toHaveTextContent('1 USDC = 0.000332896801 ETH');
    expect(panel).toHaveTextContent('0.09887034 ETH');
    expect(panel).toHaveTextContent('2030-01-01 12:01:00 UTC');
  });

  it('is nothing for any other transaction', () => {
    const { container } = render(
      <SwapDetails transaction={{ ...swap, category: 'TRANSFER', tradeResponseData: undefined }} />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
