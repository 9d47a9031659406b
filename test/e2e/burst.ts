/**
 * A burst of concurrent questions (issue 15's acceptance): a mix of facts, series, rankings and
 * market questions, spread over the clients given (each client's quota is 120 a minute), each in
 * its own conversation. Returns the statuses seen, and the replies that were not answers.
 */
export const BURST_QUESTIONS = ['Qual o CNPJ do HGLG11?', 'últimos 12 dividendos do KNRI11', 'top 10 fiis por dy', 'qual a selic hoje?', 'quanto o ifix rendeu em 2024?'];

export async function burst(
  n: number,
  ask: (question: string, clientIndex: number, conversation: string) => Promise<{ status: number; retryAfter: string | null; body: unknown }>,
  clients: number,
): Promise<{ byStatus: Record<number, number>; failures: Array<{ status: number; body: unknown; retryAfter: string | null }> }> {
  const results = await Promise.all(Array.from({ length: n }, (_, i) => ask(BURST_QUESTIONS[i % BURST_QUESTIONS.length], i % clients, `burst-${i}`)));
  const byStatus = results.reduce<Record<number, number>>((acc, r) => ((acc[r.status] = (acc[r.status] ?? 0) + 1), acc), {});
  return { byStatus, failures: results.filter((r) => r.status !== 200) };
}

/** What the burst must show: answers, and otherwise only the documented 503 (with Retry-After); never a 5xx else, never a 401 or 429. */
export function expectOnlyDocumented503s(label: string, outcome: Awaited<ReturnType<typeof burst>>): void {
  process.stderr.write(`${label}: ${JSON.stringify(outcome.byStatus)}\n`);
  for (const f of outcome.failures) {
    expect(f).toMatchObject({ status: 503, body: { error: { code: 'service_unavailable' } } });
    expect(f.retryAfter).toMatch(/^\d+$/);
  }
  expect(outcome.byStatus[200]).toBeGreaterThan(0);
}
