import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { ExamplesObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ErrorBody } from './schemas';

/** The listed error statuses of a route, each `{error: {code, message}}` with its pt-BR examples. */
export function ApiErrors(errors: Record<number, { description: string; examples: ExamplesObject }>, statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) => {
      const e = errors[status];
      if (!e) throw new Error(`no documented error ${status}`);
      return ApiResponse({ status, description: e.description, content: { 'application/json': { schema: ErrorBody, examples: e.examples } } });
    }),
  );
}
