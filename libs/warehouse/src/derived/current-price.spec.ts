import { newestPrice, referencePrice, valuationAt } from './current-price';

describe("a fund's one current price", () => {
  // KNRI11, araquem fiis_financials_snapshot.csv (22/11/2025): P/VP 0,9040, VP por cota R$ 163,254, market value R$ 4.164.327.540,00.
  const knri = { ref_date: '2025-11-22', price_book_ratio: 0.904, equity_per_share: 163.254, market_cap_value: 4164327540 };
  const lastClose = { value: 143.34, date: '2025-06-25', kind: 'close' as const }; // dashbord cotacoes.csv, 25/06/2025

  it("the snapshot's reference price is its P/VP times its NAV per share, of its date", () => {
    expect(referencePrice(knri)).toEqual({ value: 147.58, date: '2025-11-22', kind: 'reference' });
    // araquem's 0 is no P/VP: no reference price.
    expect(referencePrice({ ...knri, price_book_ratio: 0 })).toBeNull();
    expect(referencePrice({ ...knri, equity_per_share: null })).toBeNull();
  });

  it('the newer of the last close and the reference price; on the same day the traded close', () => {
    const reference = referencePrice(knri)!;
    expect(newestPrice(lastClose, reference)).toBe(reference);
    expect(newestPrice(lastClose, null)).toBe(lastClose);
    const sameDay = { ...lastClose, date: '2025-11-22' };
    expect(newestPrice(sameDay, reference)).toBe(sameDay);
  });

  it('keeps the close when the reference price is on another basis (SJAU11: 0,5930 × R$ 1,433 against a close of R$ 28,82)', () => {
    const close = { value: 28.82, date: '2025-06-25', kind: 'close' as const };
    const sjau = referencePrice({ ref_date: '2025-11-22 00:00:00', price_book_ratio: 0.593, equity_per_share: 1.433 })!;
    expect(sjau.value).toBe(0.85);
    expect(newestPrice(close, sjau)).toBe(close);
    // Within a factor of two, the newer reference stands.
    expect(newestPrice({ ...close, value: 0.5 }, sjau)).toBe(sjau);
  });

  it("the snapshot's P/VP and market value stay when its reference price is the newest, and follow a newer close", () => {
    const reference = referencePrice(knri)!;
    expect(valuationAt(knri, reference, reference)).toEqual({ price_book_ratio: 0.904, market_cap_value: 4164327540, valuation_date: '2025-11-22' });
    // A hypothetical close after the snapshot (no fund has one in the data): R$ 150,00 / 163,254 = 0,9188;
    // 4.164.327.540,00 / 147,58 × 150,00 = 4.232.613.707,82.
    const later = { value: 150, date: '2025-11-28', kind: 'close' as const };
    expect(valuationAt(knri, reference, later)).toEqual({ price_book_ratio: 0.9188, market_cap_value: 4232613707.82, valuation_date: '2025-11-28' });
  });
});
