import { InProcessTransport } from './in-process-transport';
import { describeTransportContract } from './testing/transport-contract';

describeTransportContract(
  'in-process',
  async () => new InProcessTransport(),
  (t) => t.drain(),
);

// The same contract with every handler a decorated method served by the Nest strategy (embedded mode).
describeTransportContract(
  'in-process',
  async () => new InProcessTransport(),
  (t) => t.drain(),
  'nest',
);
