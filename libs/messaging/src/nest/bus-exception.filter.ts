import { ArgumentsHost, Catch, RpcExceptionFilter } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { Observable, throwError } from 'rxjs';
import { CotaError } from '@cota/contracts';

/**
 * Keeps a handler's error as it was thrown, instead of Nest's generic "Internal server error":
 * the bus turns it into a typed error reply (CotaError's code; INTERNAL otherwise) and logs it once
 * with the request id (bus.ts). An RpcException (a guard's refusal) becomes FORBIDDEN.
 */
@Catch()
export class BusExceptionFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    if (exception instanceof RpcException) {
      const error = exception.getError();
      return throwError(() => new CotaError('FORBIDDEN', typeof error === 'string' ? error : 'refused'));
    }
    return throwError(() => exception);
  }
}
