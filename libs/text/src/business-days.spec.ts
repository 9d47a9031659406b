import { isBusinessDay, nationalHolidays } from './business-days';

describe("Brazil's national business days", () => {
  it('counts weekdays that are not national holidays, Easter-moved ones included', () => {
    expect(['2025-03-03', '2025-03-04', '2025-04-18', '2025-06-19'].map(isBusinessDay)).toEqual([false, false, false, false]);
    expect(['2025-03-05', '2025-04-17', '2025-06-20'].map(isBusinessDay)).toEqual([true, true, true]);
    expect(['2025-03-01', '2025-03-02'].map(isBusinessDay)).toEqual([false, false]);
  });

  it('keeps Black Consciousness Day national from 2024 only', () => {
    expect(nationalHolidays(2024).has('2024-11-20')).toBe(true);
    expect(nationalHolidays(2023).has('2023-11-20')).toBe(false);
    expect(isBusinessDay('2023-11-20')).toBe(true);
  });
});
