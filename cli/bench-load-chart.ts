import { parse, View } from 'vega';
import { compile, TopLevelSpec } from 'vega-lite';

interface ChartRun {
  mode: string;
  connections: number;
  rps: number;
  latency: { p50: number; p99: number };
}

/** The load benchmark as an SVG (vega-lite): latency percentiles and answers/s per mode and connections. */
export async function renderLoadChart(runs: ChartRun[], bareNatsP50: number): Promise<string> {
  const label = (r: ChartRun) => `${r.mode}, ${r.connections} ${r.connections === 1 ? 'cliente' : 'clientes'}`;
  const latency = runs.flatMap((r) => [
    { run: label(r), percentil: 'p50', ms: r.latency.p50 },
    { run: label(r), percentil: 'p99', ms: r.latency.p99 },
  ]);
  const throughput = runs.map((r) => ({ run: label(r), respostas_por_s: r.rps }));
  const spec: TopLevelSpec = {
    title: { text: 'Cota: carga (npm run bench:load)', subtitle: `ida e volta NATS pura: p50 ${bareNatsP50} ms` },
    hconcat: [
      {
        title: 'Latência (ms)',
        data: { values: latency },
        mark: 'bar',
        encoding: {
          y: { field: 'run', type: 'nominal', title: null, axis: { labelLimit: 240 } },
          yOffset: { field: 'percentil' },
          x: { field: 'ms', type: 'quantitative', title: 'ms' },
          color: { field: 'percentil', type: 'nominal' },
        },
        width: 320,
      },
      {
        title: 'Respostas por segundo',
        data: { values: throughput },
        mark: 'bar',
        encoding: { y: { field: 'run', type: 'nominal', title: null, axis: { labelLimit: 240 } }, x: { field: 'respostas_por_s', type: 'quantitative', title: 'respostas/s' } },
        width: 320,
      },
    ],
  };
  return new View(parse(compile(spec).spec), { renderer: 'none' }).toSVG();
}
