import { BaseRpcContext } from '@nestjs/microservices';
import type { Bus } from '../bus';
import type { MessageHeaders } from '../call-scope';

/** What a handler can read besides its payload (`@Ctx()`): the subject, the message headers and the bus it arrived on. */
export class BusContext extends BaseRpcContext<[subject: string, headers: MessageHeaders, bus: Bus]> {
  getSubject(): string {
    return this.args[0];
  }

  getHeaders(): MessageHeaders {
    return this.args[1];
  }

  getBus(): Bus {
    return this.args[2];
  }
}
