import { InProcessTransport } from './in-process-transport';
import { describeTransportContract } from './testing/transport-contract';

describeTransportContract(
  'in-process',
  async () => new InProcessTransport(),
  (t) => t.drain(),
);
