import { formatDate, MONTH_NAMES } from '@cota/text';

const parts = (d: string) => d.split('-').map(Number) as [number, number, number];
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/**
 * A period in words, as a person would say it: "em 2024", "em março de 2024", "no 1º trimestre de
 * 2023", "de janeiro a junho de 2025", "em 13/06/2025", "de 02/01/2024 a 28/06/2024".
 */
export function describePeriod(from: string, to: string): string {
  const [y1, m1, d1] = parts(from);
  const [y2, m2, d2] = parts(to);
  if (from === to) return `em ${formatDate(from)}`;
  const wholeMonths = d1 === 1 && d2 === lastDay(y2, m2);
  if (!wholeMonths) return `de ${formatDate(from)} a ${formatDate(to)}`;
  if (y1 === y2 && m1 === 1 && m2 === 12) return `em ${y1}`;
  if (y1 === y2 && m1 === m2) return `em ${MONTH_NAMES[m1 - 1]} de ${y1}`;
  if (y1 === y2 && m2 - m1 === 2 && (m1 - 1) % 3 === 0) return `no ${(m1 - 1) / 3 + 1}º trimestre de ${y1} (${MONTH_NAMES[m1 - 1]} a ${MONTH_NAMES[m2 - 1]})`;
  if (y1 === y2 && m2 - m1 === 5 && (m1 === 1 || m1 === 7)) return `no ${m1 === 1 ? 1 : 2}º semestre de ${y1} (${MONTH_NAMES[m1 - 1]} a ${MONTH_NAMES[m2 - 1]})`;
  if (y1 === y2) return `de ${MONTH_NAMES[m1 - 1]} a ${MONTH_NAMES[m2 - 1]} de ${y1}`;
  if (m1 === 1 && m2 === 12) return `de ${y1} a ${y2}`;
  return `de ${MONTH_NAMES[m1 - 1]} de ${y1} a ${MONTH_NAMES[m2 - 1]} de ${y2}`;
}
