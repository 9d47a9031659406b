import { loadEnv } from '@cota/config';
import { parseEraseArgs, runErase } from './erase';

describe('erase CLI arguments', () => {
  it('takes one or more --client ids (either form), once each', () => {
    expect(parseEraseArgs(['--client', 'cliente-1'])).toEqual({ clients: ['cliente-1'] });
    expect(parseEraseArgs(['--client=a', '--client', 'b', '--client', 'a'])).toEqual({ clients: ['a', 'b'] });
  });

  it.each([[[]], [['--client']], [['--client', '--client']], [['--cliente', 'x']], [['x']], [['--client', 'a\u0000b']], [['--client', 'x'.repeat(257)]]])(
    'refuses %j with the usage',
    (argv) => {
      const parsed = parseEraseArgs(argv);
      expect(parsed).toEqual({ error: expect.stringContaining('npm run erase -- --client') });
    },
  );

  it('says how to erase in embedded mode instead of failing obscurely', async () => {
    const err: string[] = [];
    expect(
      await runErase(
        ['--client', 'x'],
        loadEnv({}),
        () => undefined,
        (l) => err.push(l),
      ),
    ).toBe(2);
    expect(err.join('\n')).toMatch(/NATS_URL.*\/ops\/erase/s);
  });
});
