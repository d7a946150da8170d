import { describe, expect, it } from 'vitest';
import { BOM, csvCell, csvLine } from './csv';

describe('CSV as Excel opens it (docs/rules/operations.md#O15)', () => {
  it('quotes per RFC 4180 only where needed, doubling quotes', () => {
    expect(csvCell('스타벅스 강남점')).toBe('스타벅스 강남점');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('그가 "안녕"이라고')).toBe('"그가 ""안녕""이라고"');
    expect(csvCell('두 줄\n메모')).toBe('"두 줄\n메모"');
    expect(csvCell('')).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('defuses text a spreadsheet would run as a formula, and leaves numbers alone', () => {
    expect(csvCell('=HYPERLINK("http://evil","클릭")')).toBe('"\'=HYPERLINK(""http://evil"",""클릭"")"');
    expect(csvCell('+82 10')).toBe("'+82 10");
    expect(csvCell('-환불')).toBe("'-환불");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1+1')).toBe("'\t=1+1");
    expect(csvCell('\r=1+1')).toBe('"\'\r=1+1"');
    expect(csvCell(-5000)).toBe('-5000');
    expect(csvCell(0)).toBe('0');
    expect(csvCell('1+1')).toBe('1+1');
  });

  it('ends every record with CRLF, and the file opens with a BOM', () => {
    expect(csvLine(['결제 번호', '금액', null, 3])).toBe('결제 번호,금액,,3\r\n');
    expect(BOM).toBe('\uFEFF');
    expect(Buffer.from(BOM, 'utf8')).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });
});
