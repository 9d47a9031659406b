import { NatsTransport } from '@cota/messaging';
import { startTestNats, TestNats } from '@cota/test-support';
import { describeTransportContract } from '../../libs/messaging/src/testing/transport-contract';

let nats: TestNats;
beforeAll(async () => {
  nats = await startTestNats();
});
afterAll(async () => {
  await nats.stop();
});

describeTransportContract(
  'nats',
  () => NatsTransport.connect({ url: nats.url, name: 'contract-test' }),
  (t) => t.drain(),
);

// The same contract with every handler a decorated method served by the Nest strategy (the services' way).
describeTransportContract(
  'nats',
  () => NatsTransport.connect({ url: nats.url, name: 'contract-test-nest' }),
  (t) => t.drain(),
  'nest',
);
