import { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { validate } from '@cota/contracts';

/**
 * Validates a message's payload against its contract where it is received (a malformed message
 * becomes INVALID_MESSAGE, naming the field). Only the payload: the context argument passes through.
 */
export class ContractPipe implements PipeTransform {
  constructor(
    private readonly schema: z.ZodTypeAny,
    private readonly what: string,
  ) {}

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    // RPC payloads reach pipes as 'body' (RpcParamtype.PAYLOAD); @Ctx() as 'custom'.
    if (metadata.type !== 'body') return value;
    return validate(this.schema, value, this.what);
  }
}
