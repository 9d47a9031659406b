import { z } from 'zod';
import { defineRpc, SERVICES, ServiceName } from '../define';
import { Health } from '../common';

/** Every service answers its own health subject; the gateway's readiness uses them. */
export const healthSubject = (service: ServiceName) =>
  defineRpc({ subject: `cota.${service}.health.v1`, service, request: z.object({}), response: Health, timeoutMs: 1500, idempotent: true });

export const HealthSubjects = Object.fromEntries(SERVICES.map((s) => [s, healthSubject(s)])) as Record<ServiceName, ReturnType<typeof healthSubject>>;
