import { natsServerAndCredentials } from './nats-transport';

describe('natsServerAndCredentials', () => {
  it('splits user and password out of a NATS URL', () => {
    expect(natsServerAndCredentials('nats://planner:s%40cret@nats:4222')).toEqual({ server: 'nats://nats:4222', user: 'planner', pass: 's@cret' });
  });

  it('leaves a URL without credentials as it is', () => {
    expect(natsServerAndCredentials('nats://127.0.0.1:4222')).toEqual({ server: 'nats://127.0.0.1:4222', user: null, pass: null });
  });
});
