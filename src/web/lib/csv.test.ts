import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv.ts';

describe('csvCell', () => {
  it('writes plain text and numbers as they are, and nothing for missing values', () => {
    expect(csvCell('ETH')).toBe('ETH');
    expect(csvCell('0.000000000000000001')).toBe('0.000000000000000001');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes cells with commas, quotes or line breaks, doubling the quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('cr\r\nlf')).toBe('"cr\r\nlf"');
    expect(csvCell(' padded ')).toBe('" padded "');
  });

  it('turns cells a spreadsheet would run as formulas into text', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+1+1')).toBe('"\'+1+1"');
    expect(csvCell('-2+3')).toBe('"\'-2+3"');
    expect(csvCell('@SUM(A1)')).toBe('"\'@SUM(A1)"');
    expect(csvCell('\t=1')).toBe('"\'\t=1"');
  });

  it('sees a formula behind leading spaces, NBSP and invisible characters', () => {
    expect(csvCell(' =1+1')).toBe(`"' =1+1"`);
    expect(csvCell('\u00A0=1+1')).toBe(`"'\u00A0=1+1"`);
    expect(csvCell('\u200B=HYPERLINK("http://x")')).toBe(`"'\u200B=HYPERLINK(""http://x"")"`);
    expect(csvCell('\uFEFF+1')).toBe(`"'\uFEFF+1"`);
    expect(csvCell('\u2003\u202E-1+2')).toBe(`"'\u2003\u202E-1+2"`);
    expect(csvCell('\u3000@SUM(A1)')).toBe(`"'\u3000@SUM(A1)"`);
    expect(csvCell('\u000B=1')).toBe(`"'\u000B=1"`);
    expect(csvCell('\uFF1D1+1')).toBe(`"'\uFF1D1+1"`);
    // Text that merely contains these characters is left alone.
    expect(csvCell('a =1')).toBe('a =1');
    expect(csvCell('\u200Bplain')).toBe('\u200Bplain');
  });

  it('keeps a signed decimal amount exactly, since it is data and not a formula', () => {
    expect(csvCell('-0.5')).toBe('-0.5');
    expect(csvCell('-123456789.123456789012345678')).toBe('-123456789.123456789012345678');
  });
});

describe('csvLine', () => {
  it('joins cells with commas and ends with CRLF', () => {
    expect(csvLine(['a', 'b,c', null, '=1'])).toBe(`a,"b,c",,"'=1"\r\n`);
  });
});
