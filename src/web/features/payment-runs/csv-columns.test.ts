import { describe, expect, it } from 'vitest';
import { columnMapping, fileHeaders, guessColumn } from './csv-columns.ts';

describe('a run file’s columns', () => {
  it('reads the headers of the first line, quoted or not, without a byte-order mark', () => {
    expect(fileHeaders('\uFEFFkind,"Source vault",amount\r\nCRYPTO,v1,1\r\n')).toEqual([
      'kind',
      'Source vault',
      'amount',
    ]);
    expect(fileHeaders('')).toEqual([]);
  });

  it('guesses the column a header names in its own words, or none', () => {
    expect(guessColumn('Amount')).toBe('amount');
    expect(guessColumn('source_vault_id')).toBe('sourceVaultId');
    expect(guessColumn('Vault')).toBe('sourceVaultId');
    expect(guessColumn('Chain')).toBe('blockChain');
    expect(guessColumn('Token')).toBe('asset');
    expect(guessColumn('Contact')).toBe('contactId');
    expect(guessColumn('Invoice #')).toBeNull();
  });

  it('asks a mapping only for headers that are not already columns', () => {
    expect(columnMapping(['kind', 'Vault', 'Invoice #'], {})).toEqual({
      needed: ['Vault', 'Invoice #'],
      mapping: { Vault: 'sourceVaultId' },
      complete: false,
    });
    expect(columnMapping(['kind', 'Vault', 'Invoice #'], { 'Invoice #': 'reference' })).toEqual({
      needed: ['Vault', 'Invoice #'],
      mapping: { Vault: 'sourceVaultId', 'Invoice #': 'reference' },
      complete: true,
    });
    expect(columnMapping(['kind', 'amount'], {})).toEqual({
      needed: [],
      mapping: {},
      complete: true,
    });
  });
});
